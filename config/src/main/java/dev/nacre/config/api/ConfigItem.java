package dev.nacre.config.api;

/**
 * One stored configuration content: the formal one, the beta one, or the one of a tag.
 *
 * @param md5 lowercase hex MD5 of the UTF-8 content
 * @param type text, json, yaml, properties, xml or html
 * @param tags Nacos' {@code config_tags}, comma separated
 * @param encryptedDataKey stored and returned untouched, never logged
 * @param creator the user who published it ({@code src_user}), "" when unknown
 * @param sourceIp the address it was published from
 * @param betaIps for a beta content, the client addresses that get it (comma separated); else ""
 * @param tag for a tag's content, the tag; else ""
 * @param revision the Raft log index of the publish that wrote it: never goes backwards on a member
 */
public record ConfigItem(ConfigKey key, String content, String md5, String type, String appName, String desc,
    String tags, String encryptedDataKey, String creator, String sourceIp, String betaIps, String tag,
    long createdMillis, long modifiedMillis, long revision) {

  @Override
  public String toString() {
    // Content and encryptedDataKey stay out of logs.
    return "ConfigItem[" + key + ", md5=" + md5 + ", revision=" + revision
        + (betaIps.isEmpty() ? "" : ", beta") + (tag.isEmpty() ? "" : ", tag=" + tag) + "]";
  }
}
