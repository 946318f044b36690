package dev.nacre.config.api;

import java.util.Optional;

/**
 * A publish as the client ports parse it. With {@code casMd5} present, it replaces a content only
 * when that content's md5 is the one given: the formal content's for a formal publish, the beta's
 * or the tag's for theirs; an absent content is created whatever md5 is given. Both as in Nacos. With {@code betaIps}
 * present it publishes the beta content for those client addresses; with {@code tag} present the
 * tag's content; else the formal content.
 */
public record PublishRequest(ConfigKey key, String content, String type, String appName, String desc,
    String tags, String encryptedDataKey, String user, String sourceIp, Optional<String> casMd5,
    Optional<String> betaIps, Optional<String> tag) {

  @Override
  public String toString() {
    return "PublishRequest[" + key + ", " + content.length() + " chars from " + sourceIp
        + casMd5.map(m -> ", casMd5=" + m).orElse("") + betaIps.map(b -> ", beta").orElse("")
        + tag.map(t -> ", tag=" + t).orElse("") + "]";
  }
}
