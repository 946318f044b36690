package dev.nacre.naming.distro;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;

/**
 * The strings naming gives Distro: one key per ephemeral instance, and the hash key of a service
 * for the ownership mapper. Every name part is written as {@code <length>:<chars>}, so names may
 * hold any character (colons, {@code @@}, digits) and two different instances never share a key.
 *
 * <p>Example: {@code ephemeral:6:public13:DEFAULT_GROUP6:orders7:DEFAULT8:10.0.0.1:8080}.
 */
public final class DistroKeys {
  static final String INSTANCE_PREFIX = "ephemeral:";
  static final String SERVICE_PREFIX = "service:";

  private DistroKeys() {}

  /** The Distro key of one ephemeral instance. */
  public static String instanceKey(InstanceKey key) {
    StringBuilder b = new StringBuilder(INSTANCE_PREFIX);
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
    if (!key.startsWith(INSTANCE_PREFIX)) {
      throw bad(key, "does not start with '" + INSTANCE_PREFIX + "'");
    }
    int[] at = {INSTANCE_PREFIX.length()};
    String namespace = readPart(key, at);
    String group = readPart(key, at);
    String name = readPart(key, at);
    String cluster = readPart(key, at);
    String ip = readPart(key, at);
    String port = key.substring(at[0]);
    if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(Character::isDigit)) {
      throw bad(key, "port '" + port + "' is not a number");
    }
    return new InstanceKey(new ServiceKey(namespace, group, name), cluster, ip, Integer.parseInt(port));
  }

  private static void appendService(StringBuilder b, ServiceKey service) {
    part(b, service.namespaceId());
    part(b, service.group());
    part(b, service.name());
  }

  private static void part(StringBuilder b, String value) {
    b.append(value.length()).append(':').append(value);
  }

  private static String readPart(String key, int[] at) {
    int colon = key.indexOf(':', at[0]);
    if (colon <= at[0] || colon - at[0] > 9) {
      throw bad(key, "no length prefix at offset " + at[0]);
    }
    String digits = key.substring(at[0], colon);
    if (!digits.chars().allMatch(Character::isDigit)) {
      throw bad(key, "length '" + digits + "' at offset " + at[0] + " is not a number");
    }
    int length = Integer.parseInt(digits);
    int end = colon + 1 + length;
    if (end > key.length()) {
      throw bad(key, "a part of length " + length + " runs past the end");
    }
    at[0] = end;
    return key.substring(colon + 1, end);
  }

  private static ReplicatedValueException bad(String key, String why) {
    return new ReplicatedValueException("not an ephemeral instance key: " + abbreviate(key) + " (" + why + ")");
  }

  static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "...(" + s.length() + " chars)";
  }
}
