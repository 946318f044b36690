package dev.nacre.node.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Paging;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Nacos' v1 auth API: login (both paths the clients use), the one-time administrator password,
 * and users, role grants and permissions. Who may call what is {@link HttpAccessRules}' business;
 * these handlers only do it.
 */
public final class AuthApi {
  private static final String BASE = "/nacos/v1/auth";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final AccessControl access;
  private final AuthDirectory directory;

  public AuthApi(AccessControl access) {
    this.access = access;
    this.directory = access.directory();
  }

  public void register(Router router) {
    router
        .add("POST", BASE + "/login", this::login)
        .add("POST", BASE + "/users/login", this::login)
        .add("POST", BASE + "/users/admin", this::createAdmin)
        .add("GET", BASE + "/users", this::users)
        .add("POST", BASE + "/users", r -> done(() -> directory.createUser(r.required("username"),
            r.required("password")), "create user ok!"))
        .add("PUT", BASE + "/users", r -> done(() -> directory.changePassword(r.required("username"),
            r.param("newPassword").orElseGet(() -> r.required("password"))), "update user ok!"))
        .add("DELETE", BASE + "/users", r -> done(() -> directory.deleteUser(r.required("username")),
            "delete user ok!"))
        .add("GET", BASE + "/roles", this::roles)
        .add("POST", BASE + "/roles", r -> done(() -> directory.grant(r.required("role"), r.required("username")),
            "add role ok!"))
        .add("DELETE", BASE + "/roles", r -> done(() -> directory.revoke(r.required("role"), r.param("username")),
            "delete role ok!"))
        .add("GET", BASE + "/permissions", this::permissions)
        .add("POST", BASE + "/permissions", r -> done(() -> directory.addPermission(r.required("role"),
            r.required("resource"), r.required("action")), "add permission ok!"))
        .add("DELETE", BASE + "/permissions", r -> done(() -> directory.removePermission(r.required("role"),
            r.required("resource"), r.required("action")), "delete permission ok!"));
  }

  private ApiResponse login(ApiRequest r) throws Exception {
    AccessControl.Login login;
    try {
      login = access.login(r.required("username"), r.required("password"));
    } catch (AccessDenied e) {
      throw new HttpError(403, e.getMessage());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    if (!login.accessToken().isEmpty()) {
      body.put("accessToken", login.accessToken());
      body.put("tokenTtl", login.tokenTtlSeconds());
    }
    body.put("globalAdmin", login.globalAdmin());
    body.put("username", login.username());
    if (!access.enabled()) {
      body.put("message", "authentication is off on this node: no token is needed");
    }
    return json(body);
  }

  private ApiResponse createAdmin(ApiRequest r) throws Exception {
    String password = r.required("password");
    try {
      directory.createAdmin(password);
    } catch (IllegalStateException | NamingException e) {
      if (e instanceof NamingException n && n.kind() != NamingException.Kind.CONFLICT) {
        throw n;
      }
      throw new HttpError(409, "the administrator '" + AuthDirectory.ADMIN_USER + "' is already set; log in"
          + " as it (its password changes with PUT /nacos/v1/auth/users)");
    }
    return json(Map.of("username", AuthDirectory.ADMIN_USER));
  }

  private ApiResponse users(ApiRequest r) throws Exception {
    List<Map<String, Object>> items = directory.users().stream()
        .filter(u -> r.param("username").map(u.name()::contains).orElse(true))
        .map(u -> Map.<String, Object>of("username", u.name())).toList();
    return page(r, items);
  }

  private ApiResponse roles(ApiRequest r) throws Exception {
    Optional<String> user = r.param("username");
    Optional<String> role = r.param("role");
    List<Map<String, Object>> items = directory.grants().stream()
        .filter(g -> user.map(g.username()::equals).orElse(true) && role.map(g.role()::equals).orElse(true))
        .map(g -> Map.<String, Object>of("role", g.role(), "username", g.username())).toList();
    return page(r, items);
  }

  private ApiResponse permissions(ApiRequest r) throws Exception {
    Optional<String> role = r.param("role");
    List<Map<String, Object>> items = directory.permissions().stream()
        .filter(p -> role.map(p.role()::equals).orElse(true))
        .map(p -> Map.<String, Object>of("role", p.role(), "resource", p.resource(), "action", p.action())).toList();
    return page(r, items);
  }

  /** Nacos' page: {@code totalCount}, {@code pageNumber}, {@code pagesAvailable}, {@code pageItems}. */
  private static ApiResponse page(ApiRequest r, List<Map<String, Object>> items) throws Exception {
    int pageNo = Math.max(1, r.intParam("pageNo").orElse(1));
    int pageSize = Math.max(1, Math.min(500, r.intParam("pageSize").orElse(100)));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("totalCount", items.size());
    body.put("pageNumber", pageNo);
    body.put("pagesAvailable", (items.size() + pageSize - 1) / pageSize);
    body.put("pageItems", Paging.page(items, pageNo, pageSize));
    return json(body);
  }

  private static ApiResponse done(Runnable change, String message) throws Exception {
    change.run();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("code", 200);
    body.put("message", message);
    body.put("data", null);
    return json(body);
  }

  private static ApiResponse json(Object body) throws Exception {
    return ApiResponse.json(MAPPER.writeValueAsBytes(body));
  }
}
