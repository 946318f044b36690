package dev.nacre.config.state;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.Revision;
import dev.nacre.proto.config.ConfigItemRecord;
import dev.nacre.proto.config.ConfigKeyRecord;
import dev.nacre.proto.config.RevisionRecord;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Conversions between the API's records and their Protocol Buffers form; the md5 of a content. */
public final class Records {
  private Records() {}

  /** Lowercase hex MD5 of the UTF-8 bytes, as Nacos computes a config's md5. */
  public static String md5(String content) {
    try {
      MessageDigest digest = MessageDigest.getInstance("MD5");
      return HexFormat.of().formatHex(digest.digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has MD5", e);
    }
  }

  public static ConfigKeyRecord record(ConfigKey key) {
    return ConfigKeyRecord.newBuilder().setNamespace(key.namespace()).setGroup(key.group())
        .setDataId(key.dataId()).build();
  }

  public static ConfigKey key(ConfigKeyRecord r) {
    return new ConfigKey(r.getNamespace(), r.getGroup(), r.getDataId());
  }

  public static ConfigItemRecord record(ConfigItem i) {
    return ConfigItemRecord.newBuilder().setKey(record(i.key())).setContent(i.content()).setMd5(i.md5())
        .setType(i.type()).setAppName(i.appName()).setDesc(i.desc()).setTags(i.tags())
        .setEncryptedDataKey(i.encryptedDataKey()).setCreator(i.creator()).setSourceIp(i.sourceIp())
        .setBetaIps(i.betaIps()).setTag(i.tag()).setCreatedMillis(i.createdMillis())
        .setModifiedMillis(i.modifiedMillis()).setRevision(i.revision()).build();
  }

  public static ConfigItem item(ConfigItemRecord r) {
    return new ConfigItem(key(r.getKey()), r.getContent(), r.getMd5(), r.getType(), r.getAppName(), r.getDesc(),
        r.getTags(), r.getEncryptedDataKey(), r.getCreator(), r.getSourceIp(), r.getBetaIps(), r.getTag(),
        r.getCreatedMillis(), r.getModifiedMillis(), r.getRevision());
  }

  public static RevisionRecord record(Revision v) {
    return RevisionRecord.newBuilder().setId(v.id()).setKey(record(v.key())).setOperation(v.operation())
        .setPublishType(v.publishType()).setContent(v.content()).setMd5(v.md5()).setType(v.type())
        .setAppName(v.appName()).setEncryptedDataKey(v.encryptedDataKey()).setUser(v.user())
        .setSourceIp(v.sourceIp()).setTag(v.tag()).setCreatedMillis(v.createdMillis())
        .setModifiedMillis(v.modifiedMillis()).build();
  }

  public static Revision revision(RevisionRecord r) {
    return new Revision(r.getId(), key(r.getKey()), r.getOperation(), r.getPublishType(), r.getContent(), r.getMd5(),
        r.getType(), r.getAppName(), r.getEncryptedDataKey(), r.getUser(), r.getSourceIp(), r.getTag(),
        r.getCreatedMillis(), r.getModifiedMillis());
  }
}
