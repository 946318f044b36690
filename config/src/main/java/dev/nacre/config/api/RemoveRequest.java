package dev.nacre.config.api;

import java.util.Optional;

/**
 * A delete: of the formal content with its beta and tags ({@code beta} false, no tag), of the beta
 * content only ({@code beta} true: stops the beta), or of one tag's content.
 */
public record RemoveRequest(ConfigKey key, boolean beta, Optional<String> tag, String user, String sourceIp) {}
