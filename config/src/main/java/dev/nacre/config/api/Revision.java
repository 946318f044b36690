package dev.nacre.config.api;

/**
 * One entry of a configuration's history: the state after a publish or before a delete.
 *
 * @param id unique over the cluster and increasing: {@code max(previous id + 1, logIndex * 1024)},
 *     so about the Raft log index of the change times 1024 plus its position in the entry
 * @param operation Nacos' op type: {@code I} insert, {@code U} update, {@code D} delete
 * @param publishType "formal", "beta" or "tag"
 */
public record Revision(long id, ConfigKey key, String operation, String publishType, String content, String md5,
    String type, String appName, String encryptedDataKey, String user, String sourceIp, String tag,
    long createdMillis, long modifiedMillis) {

  @Override
  public String toString() {
    return "Revision[" + id + " " + operation + " " + key + ", md5=" + md5 + "]";
  }
}
