package dev.nacre.naming.distro;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;

/**
 * The strings naming gives Distro: one key per ephemeral instance, one key per persistent
 * instance's probed health, and the hash key of a service for the ownership mapper. Each kind has
 * its own prefix (the key's namespace), so a health key is never read as an instance key and the
 * other way round. Every name part is written as {@code <length>:<chars>}, so names may hold any
 * character (colons, {@code @@}, digits) and two different instances never share a key.
 *
 * <p>Examples: {@code ephemeral:6:public13:DEFAULT_GROUP6:orders7:DEFAULT8:10.0.0.1:8080},
 * {@code health:6:public13:DEFAULT_GROUP6:orders7:DEFAULT8:10.0.0.1:8080}.
 */
public final class DistroKeys {
  static final String INSTANCE_PREFIX = "ephemeral:";
  static final String HEALTH_PREFIX = "health:";
  static final String SERVICE_PREFIX = "service:";

  private DistroKeys() {}

  /** The Distro key of one ephemeral instance. */
  public static String instanceKey(InstanceKey key) {
    return instanceIn(INSTANCE_PREFIX, key);
  }

  /** The Distro key of the probed health of one persistent instance. */
  public static String healthKey(InstanceKey key) {
    return instanceIn(HEALTH_PREFIX, key);
  }

  /** True when {@code key} is in the health namespace (it may still be malformed). */
  public static boolean isHealthKey(String key) {
    return key.startsWith(HEALTH_PREFIX);
  }

  /** True for the key of an ephemeral instance (its record lives in the ephemeral store). */
  public static boolean isInstanceKey(String key) {
    return key.startsWith(INSTANCE_PREFIX);
  }

  private static String instanceIn(String prefix, InstanceKey key) {
    StringBuilder b = new StringBuilder(prefix);
    appendService(b, key.service());
    part(b, key.cluster());
    part(b, key.ip());
    return b.append(key.port()).toString();
  }

  /**
   * The key a service is hashed by to find its responsible member: namespace, group and name,
   * never the instance, so that every instance of a service has the same responsible member.
   */
  public static String serviceKey(ServiceKey service) {
    StringBuilder b = new StringBuilder(SERVICE_PREFIX);
    appendService(b, service);
    return b.toString();
  }

  /**
   * Reads back an {@link #instanceKey}.
   *
   * @throws ReplicatedValueException when {@code key} is not one
   */
  public static InstanceKey parseInstanceKey(String key) {
    return parse(INSTANCE_PREFIX, "an ephemeral instance", key);
  }

  /**
   * Reads back a {@link #healthKey}.
   *
   * @throws ReplicatedValueException when {@code key} is not one
   */
  public static InstanceKey parseHealthKey(String key) {
    return parse(HEALTH_PREFIX, "a persistent instance health", key);
  }

  private static InstanceKey parse(String prefix, String kind, String key) {
    if (!key.startsWith(prefix)) {
      throw bad(kind, key, "does not start with '" + prefix + "'");
    }
    int[] at = {prefix.length()};
    String namespace = readPart(kind, key, at);
    String group = readPart(kind, key, at);
    String name = readPart(kind, key, at);
    String cluster = readPart(kind, key, at);
    String ip = readPart(kind, key, at);
    int port = key.length() - at[0] > 5 ? -1 : digits(key, at[0], key.length());
    if (port < 0) {
      throw bad(kind, key, "port '" + key.substring(at[0]) + "' is not a number");
    }
    return new InstanceKey(new ServiceKey(namespace, group, name), cluster, ip, port);
  }

  private static void appendService(StringBuilder b, ServiceKey service) {
    part(b, service.namespaceId());
    part(b, service.group());
    part(b, service.name());
  }

  private static void part(StringBuilder b, String value) {
    b.append(value.length()).append(':').append(value);
  }

  private static String readPart(String kind, String key, int[] at) {
    int colon = key.indexOf(':', at[0]);
    if (colon <= at[0] || colon - at[0] > 9) {
      throw bad(kind, key, "no length prefix at offset " + at[0]);
    }
    int length = digits(key, at[0], colon);
    if (length < 0) {
      throw bad(kind, key, "length '" + key.substring(at[0], colon) + "' at offset " + at[0] + " is not a number");
    }
    int end = colon + 1 + length;
    if (end > key.length()) {
      throw bad(kind, key, "a part of length " + length + " runs past the end");
    }
    at[0] = end;
    return key.substring(colon + 1, end);
  }

  /**
   * The decimal number in {@code key[from, to)}, or -1 when that range is empty or holds anything
   * but ASCII digits. Callers bound the range to 9 digits or fewer, so it cannot overflow. A loop,
   * not a stream and a substring: every replicated record's key is read this way, and a start
   * loads hundreds of thousands of them.
   */
  private static int digits(String key, int from, int to) {
    if (from >= to) {
      return -1;
    }
    int value = 0;
    for (int i = from; i < to; i++) {
      char c = key.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static ReplicatedValueException bad(String kind, String key, String why) {
    return new ReplicatedValueException("not " + kind + " key: " + abbreviate(key) + " (" + why + ")");
  }

  static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...(" + s.length() + " chars)";
  }
}
