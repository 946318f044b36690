package dev.nacre.config.state;

import dev.nacre.config.api.ConfigKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The RocksDB keys of the config families. A configuration's key is {@code namespace 0x00 group
 * 0x00 dataId} (validation keeps 0x00 out of names, so no key is a prefix of another's with the
 * separator). History rows follow with {@code 0x00} and {@code Long.MAX_VALUE - id} big-endian, so
 * that one configuration's revisions are adjacent and newest first in key order.
 */
final class Keys {
  static final byte[] REVISION_COUNTER = "revision".getBytes(StandardCharsets.UTF_8);

  private Keys() {}

  static byte[] config(ConfigKey key) {
    return (key.namespace() + '\0' + key.group() + '\0' + key.dataId()).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] tag(ConfigKey key, String tag) {
    return (key.namespace() + '\0' + key.group() + '\0' + key.dataId() + '\0' + tag).getBytes(StandardCharsets.UTF_8);
  }

  /** Every history row of {@code key} starts with this. */
  static byte[] historyPrefix(ConfigKey key) {
    byte[] k = config(key);
    return Arrays.copyOf(k, k.length + 1);
  }

  static byte[] history(ConfigKey key, long id) {
    byte[] prefix = historyPrefix(key);
    return ByteBuffer.allocate(prefix.length + Long.BYTES).put(prefix).putLong(Long.MAX_VALUE - id).array();
  }

  /** The revision id at the end of a history row's key. */
  static long historyId(byte[] historyKey) {
    return Long.MAX_VALUE - ByteBuffer.wrap(historyKey, historyKey.length - Long.BYTES, Long.BYTES).getLong();
  }

  /** Row of the time index: modified time, then id; its value is the history row's key. */
  static byte[] byTime(long timeMillis, long id) {
    return ByteBuffer.allocate(2 * Long.BYTES).putLong(Math.max(0, timeMillis)).putLong(id).array();
  }

  static long timeOf(byte[] byTimeKey) {
    return ByteBuffer.wrap(byTimeKey, 0, Long.BYTES).getLong();
  }

  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  static byte[] longBytes(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }

  static long longOf(byte[] bytes) {
    return ByteBuffer.wrap(bytes).getLong();
  }
}
