package dev.nacre.node.auth;

import dev.nacre.node.auth.AccessControl.Need;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import java.util.Optional;

/**
 * What each HTTP request needs when client authentication is on. Everything under the API
 * prefixes needs a token; reads of naming data need read access to the namespace, changes write
 * access; user administration, operator switches, namespaces, cluster changes and the client
 * views that span namespaces ({@code /nacos/v2/ns/client}, {@code /client/list}, {@code
 * /client/publish/list}, {@code /client/subscribe/list}) need the administrator. Open: logging in, setting the first administrator's password, the health probes,
 * the metrics scrape and the console's static files (which log in through the API).
 */
public final class HttpAccessRules {
  private static final String AUTH = "/nacos/v1/auth/";
  private static final String STATUSES = "/nacos/v2/ns/instance/statuses/";
  private static final String CLIENTS = "/nacos/v2/ns/client";
  private static final String CONFIGS_V1 = "/nacos/v1/cs/";
  private static final String CONFIGS_V2 = "/nacos/v2/cs/";

  private final AccessControl access;

  public HttpAccessRules(AccessControl access) {
    this.access = access;
  }

  /** A refusal (403, Nacos' error body) when the request may not run; empty when it may. */
  public Optional<ApiResponse> refusal(ApiRequest request) {
    if (!access.enabled()) {
      return Optional.empty();
    }
    Optional<Need> need = needOf(request.method(), normalized(request.path()));
    if (need.isEmpty()) {
      return Optional.empty();
    }
    try {
      access.check(request.accessToken(), need.get(), namespaceOf(request));
      return Optional.empty();
    } catch (AccessDenied e) {
      return Optional.of(ApiResponse.error(403, e.getMessage()));
    }
  }

  static Optional<Need> needOf(String method, String path) {
    boolean read = method.equals("GET") || method.equals("HEAD");
    if (path.equals(AUTH + "login") || path.equals(AUTH + "users/login") || path.equals(AUTH + "users/admin")
        || path.startsWith("/nacos/v1/console/health/") || path.startsWith("/nacos/v2/console/health/")) {
      return Optional.empty();
    }
    if (path.startsWith(AUTH)) {
      return Optional.of(Need.ADMIN);
    }
    if (path.startsWith("/nacos/v1/ns/operator/") || path.startsWith("/nacos/v2/ns/operator/")
        || path.startsWith("/nacos/v1/console/") || path.startsWith("/nacos/v1/core/")
        || path.startsWith("/nacos/v2/core/") || path.startsWith("/nacre/")) {
      return Optional.of(read ? Need.USER : Need.ADMIN);
    }
    if (path.startsWith(CLIENTS) && !path.startsWith(CLIENTS + "/service/")) {
      // A client's registrations and subscriptions span namespaces: Nacos guards them as an admin resource.
      return Optional.of(Need.ADMIN);
    }
    if (path.startsWith("/nacos/v1/ns/") || path.startsWith("/nacos/v2/ns/")) {
      return Optional.of(read ? Need.READ : Need.WRITE);
    }
    if (path.startsWith(CONFIGS_V1) || path.startsWith(CONFIGS_V2)) {
      // A long poll is a POST that only reads.
      return Optional.of(read || path.equals(CONFIGS_V1 + "configs/listener") ? Need.READ : Need.WRITE);
    }
    if (path.startsWith("/nacos/v1/") || path.startsWith("/nacos/v2/")) {
      return Optional.of(read ? Need.USER : Need.ADMIN);
    }
    return Optional.empty(); // metrics, the console's files, unknown paths (404)
  }

  /**
   * The namespace a request touches: {@code namespaceId} ({@code tenant} for config v1), or for {@code /instance/statuses/{key}}
   * the key's {@code namespace##} part ("" means public).
   */
  static String namespaceOf(ApiRequest request) {
    String path = request.path();
    if (path.startsWith(STATUSES)) {
      String key = path.substring(STATUSES.length());
      int sep = key.indexOf("##");
      return sep < 0 ? "" : key.substring(0, sep);
    }
    if (path.startsWith(CONFIGS_V1)) {
      return request.param("tenant", "");
    }
    if (path.startsWith(CONFIGS_V2)) {
      return request.param("namespaceId").orElse(request.param("tenant", ""));
    }
    return request.param("namespaceId", "");
  }

  /** As the router matches paths (exactly, a trailing slash dropped), so both read the same route. */
  private static String normalized(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}
