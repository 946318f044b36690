package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.HttpError;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the parameters the config APIs share, with Nacos' checks and messages. v1 names the
 * namespace {@code tenant}, v2 {@code namespaceId}; both default to the public namespace. Failures
 * are {@link HttpError}s of 400 (v2 gives them its codes, see {@link ConfigErrors}).
 */
final class ConfigParams {
  /** The content types Nacos knows; any other is stored as {@code text}, as Nacos does. */
  static final Set<String> TYPES = Set.of("text", "json", "xml", "yaml", "html", "properties");
  private static final int MAX_TENANT = 128;
  private static final int MAX_PAGE_SIZE = 500;

  /** Which API reads: their namespace and group parameters and how a missing one is worded. */
  enum Dialect {
    V1, V2
  }

  private ConfigParams() {}

  static ConfigKey key(ApiRequest r, Dialect dialect) {
    String dataId = required(r, "dataId", dialect);
    String group = dialect == Dialect.V1 ? r.param("group", ConfigKey.DEFAULT_GROUP)
        : r.param("group").or(() -> r.param("groupName")).orElseThrow(() -> missing("group", dialect));
    return checked(namespace(r, dialect), group, dataId);
  }

  /** A key from the parts, after Nacos' checks of each. */
  static ConfigKey checked(String namespace, String group, String dataId) {
    if (!valid(dataId)) {
      throw HttpError.badRequest("invalid dataId : " + dataId);
    }
    if (!valid(group)) {
      throw HttpError.badRequest("invalid group : " + group);
    }
    return new ConfigKey(namespace, group, dataId);
  }

  /** The namespace, {@code ""} for the public one (absent, blank or {@code public}). */
  static String namespace(ApiRequest r, Dialect dialect) {
    String tenant = dialect == Dialect.V1 ? r.param("tenant", "")
        : r.param("namespaceId").orElse(r.param("tenant", ""));
    if (tenant.length() > MAX_TENANT || !tenant.isEmpty() && !valid(tenant)) {
      throw HttpError.badRequest("invalid tenant: '" + tenant + "' (letters, digits and _-.: up to "
          + MAX_TENANT + " characters)");
    }
    return ConfigKey.normalizeNamespace(tenant);
  }

  static String required(ApiRequest r, String name, Dialect dialect) {
    return r.param(name).orElseThrow(() -> missing(name, dialect));
  }

  static HttpError missing(String name, Dialect dialect) {
    return HttpError.badRequest(dialect == Dialect.V1 ? "Param '" + name + "' is required."
        : "Required parameter '" + name + "' type String is not present");
  }

  /** The request's tag, empty for none; checked as Nacos checks names. */
  static Optional<String> tag(ApiRequest r) {
    Optional<String> tag = r.param("tag");
    tag.filter(t -> !valid(t)).ifPresent(t -> {
      throw HttpError.badRequest("invalid tag : " + t);
    });
    return tag;
  }

  static String type(ApiRequest r) {
    return r.param("type").filter(TYPES::contains).orElse("text");
  }

  static int pageNo(ApiRequest r) {
    int pageNo = r.intParam("pageNo").orElse(1);
    if (pageNo < 1) {
      throw HttpError.badRequest("Param 'pageNo' must be at least 1, got " + pageNo + ".");
    }
    return pageNo;
  }

  static int pageSize(ApiRequest r, int fallback) {
    int pageSize = r.intParam("pageSize").orElse(fallback);
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw HttpError.badRequest("Param 'pageSize' must be within 1.." + MAX_PAGE_SIZE + ", got " + pageSize + ".");
    }
    return pageSize;
  }

  static long longParam(ApiRequest r, String name, Dialect dialect) {
    return r.longParam(name).orElseThrow(() -> dialect == Dialect.V1 ? missing(name, dialect)
        : HttpError.badRequest("Required parameter '" + name + "' type Long is not present"));
  }

  /** The client's address as Nacos records it ({@code src_ip}, beta matching). */
  static String clientIp(ApiRequest r) {
    return r.source().map(a -> a.getHostAddress()).orElse("");
  }

  /** Nacos' name rule for dataId, group, tenant and tag: letters, digits and {@code _-.:}. */
  static boolean valid(String name) {
    if (name == null || name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
          || c == '_' || c == '-' || c == '.' || c == ':';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
