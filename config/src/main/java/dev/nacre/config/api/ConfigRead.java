package dev.nacre.config.api;

/** What one reader gets: the content that applies to it, and whether it is the beta or a tag's. */
public record ConfigRead(ConfigItem item, boolean beta, String tag) {}
