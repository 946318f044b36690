package dev.nacre.config.validate;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigException.Kind;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Nacos' rules for what a client may write (its {@code ParamUtils}), with its messages: names of
 * letters, digits and {@code -_.:}, dataId up to 256 characters, group up to 128, namespace up to
 * 128 of letters, digits and {@code -_}; content not blank and within the size limit; a tag up to
 * 64 characters; beta addresses a comma list of IPs. Every refusal is a {@link ConfigException} of
 * kind {@link Kind#INVALID} whose message names the parameter. Stateless and thread-safe.
 */
public final class ConfigValidator {
  public static final int MAX_DATA_ID = 256;
  public static final int MAX_GROUP = 128;
  public static final int MAX_NAMESPACE = 128;
  public static final int MAX_TAG = 64;
  public static final int MAX_DESC = 128;
  public static final int MAX_CONFIG_TAGS = 5;
  public static final Set<String> TYPES = Set.of("text", "json", "yaml", "properties", "xml", "html");

  private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9\\-_.:]+");
  private static final Pattern NAMESPACE = Pattern.compile("[a-zA-Z0-9\\-_]+");
  private static final Pattern IPV4 = Pattern.compile(
      "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]+");

  private final int maxContentBytes;

  public ConfigValidator(int maxContentBytes) {
    this.maxContentBytes = maxContentBytes;
  }

  public void checkKey(ConfigKey key) {
    if (!key.namespace().isEmpty()
        && (key.namespace().length() > MAX_NAMESPACE || !NAMESPACE.matcher(key.namespace()).matches())) {
      throw invalid("invalid namespace : " + key.namespace() + " (up to " + MAX_NAMESPACE
          + " letters, digits, '-' or '_')");
    }
    if (key.dataId().isBlank() || key.dataId().length() > MAX_DATA_ID || !NAME.matcher(key.dataId()).matches()) {
      throw invalid("invalid dataId : " + key.dataId() + " (required, up to " + MAX_DATA_ID
          + " letters, digits, '-', '_', '.' or ':')");
    }
    if (key.group().isBlank() || key.group().length() > MAX_GROUP || !NAME.matcher(key.group()).matches()) {
      throw invalid("invalid group : " + key.group() + " (required, up to " + MAX_GROUP
          + " letters, digits, '-', '_', '.' or ':')");
    }
  }

  /** Checks a publish; returns its type as stored (an empty or unknown type is text, as in Nacos). */
  public String checkPublish(PublishRequest r) {
    checkKey(r.key());
    if (r.content() == null || r.content().isBlank()) {
      throw invalid("content is blank");
    }
    int bytes = r.content().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxContentBytes) {
      throw invalid("invalid content, over " + maxContentBytes + " bytes (" + bytes + " given)");
    }
    if (r.desc() != null && r.desc().length() > MAX_DESC) {
      throw invalid("too long desc, over " + MAX_DESC);
    }
    if (r.tags() != null && !r.tags().isBlank()) {
      String[] tags = r.tags().split(",");
      if (tags.length > MAX_CONFIG_TAGS) {
        throw invalid("too many config_tags, over " + MAX_CONFIG_TAGS);
      }
      if (Arrays.stream(tags).anyMatch(t -> t.length() > MAX_TAG)) {
        throw invalid("too long config_tags, over " + MAX_TAG);
      }
    }
    if (r.betaIps().isPresent() && r.tag().filter(t -> !t.isEmpty()).isPresent()) {
      throw invalid("betaIps and tag both given: a publish is for beta addresses or for a tag");
    }
    r.betaIps().ifPresent(ConfigValidator::checkBetaIps);
    checkTag(r.tag());
    return type(r.type());
  }

  public void checkRemove(RemoveRequest r) {
    checkKey(r.key());
    if (r.beta() && r.tag().filter(t -> !t.isEmpty()).isPresent()) {
      throw invalid("beta and tag both given: a delete is of the beta content or of a tag's");
    }
    checkTag(r.tag());
  }

  public static void checkPage(int pageNo, int pageSize) {
    if (pageNo < 1) {
      throw invalid("invalid pageNo : " + pageNo + " (pages are numbered from 1)");
    }
    if (pageSize < 1 || pageSize > 500) {
      throw invalid("invalid pageSize : " + pageSize + " (1 to 500)");
    }
  }

  /** Nacos stores an empty or unknown type as text. */
  public static String type(String type) {
    String t = type == null ? "" : type.trim().toLowerCase(java.util.Locale.ROOT);
    return TYPES.contains(t) ? t : "text";
  }

  private static void checkTag(Optional<String> tag) {
    tag.filter(t -> !t.isEmpty()).ifPresent(t -> {
      if (!NAME.matcher(t).matches()) {
        throw invalid("invalid tag : " + t + " (letters, digits, '-', '_', '.' or ':')");
      }
      if (t.length() > MAX_TAG) {
        throw invalid("too long tag, over " + MAX_TAG);
      }
    });
  }

  private static void checkBetaIps(String betaIps) {
    if (betaIps.isBlank()) {
      throw invalid("betaIps is blank: give the client addresses, comma separated");
    }
    for (String ip : betaIps.split(",", -1)) {
      String a = ip.trim();
      boolean v6 = a.contains(":") && IPV6.matcher(a).matches() && isV6(a);
      if (!v6 && !IPV4.matcher(a).matches()) {
        throw invalid("invalid betaIps : '" + a + "' is not an IP address");
      }
    }
  }

  private static boolean isV6(String a) {
    try {
      // A literal of only hex digits, ':' and '.' is parsed, never looked up in DNS.
      java.net.InetAddress.getByName(a);
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static ConfigException invalid(String message) {
    return new ConfigException(Kind.INVALID, message);
  }
}
