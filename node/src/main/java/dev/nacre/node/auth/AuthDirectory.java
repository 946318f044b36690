package dev.nacre.node.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.persistent.AuthRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Users, role grants and permissions, as Nacos models them, kept as auth records in the Raft group
 * (so they survive restarts and are the same on every member). Reads come from this member's
 * applied records; writes go through the log and return once applied here.
 *
 * <p>Records: a user ({@code user}, its name; a JSON value with the BCrypt hash and whether it is
 * the global administrator), a grant ({@code role}, "role TAB user"), a permission
 * ({@code permission}, "role TAB resource TAB action"). The global administrator is created once
 * ({@link #createAdmin}) and holds {@link #ADMIN_ROLE}. Thread-safe.
 */
public final class AuthDirectory {
  public static final String ADMIN_ROLE = "ROLE_ADMIN";
  public static final String ADMIN_USER = "nacos";
  static final String USER = "user";
  static final String ROLE = "role";
  static final String PERMISSION = "permission";
  private static final String SEP = "\t";
  private static final int MAX_NAME = 128;
  private static final ObjectMapper MAPPER = new ObjectMapper();

  public record User(String name, String passwordHash, boolean globalAdmin) {}

  public record Grant(String role, String username) {}

  /** {@code resource} is Nacos' "namespace:group:resource" or a bare namespace; {@code action} r, w or rw. */
  public record Permission(String role, String resource, String action) {
    /** The namespace the permission covers ({@code *}: all); Nacos writes public as "". */
    String namespace() {
      int colon = resource.indexOf(':');
      String ns = colon < 0 ? resource : resource.substring(0, colon);
      return ns.isEmpty() ? "public" : ns;
    }

    boolean allows(String namespaceId, boolean write) {
      String ns = namespace();
      return (ns.equals("*") || ns.equals(namespaceId)) && action.contains(write ? "w" : "r");
    }
  }

  /** What the records said at one version: derived once, read by every request until they change. */
  private record View(long version, Map<String, User> users, List<Grant> grants, List<Permission> permissions) {}

  private final AuthRecords records;
  private final NamingOperations log;
  private final Passwords passwords = new Passwords();
  private volatile View view = new View(-1, Map.of(), List.of(), List.of());

  public AuthDirectory(AuthRecords records, NamingOperations log) {
    this.records = records;
    this.log = log;
  }

  Passwords passwords() {
    return passwords;
  }

  public Optional<User> user(String name) {
    return Optional.ofNullable(view().users().get(name));
  }

  public List<User> users() {
    return List.copyOf(view().users().values());
  }

  public boolean adminExists() {
    return view().users().values().stream().anyMatch(User::globalAdmin);
  }

  /** The user's roles, {@link #ADMIN_ROLE} included for the global administrator. */
  public Set<String> rolesOf(String username) {
    Set<String> roles = new TreeSet<>();
    user(username).filter(User::globalAdmin).ifPresent(u -> roles.add(ADMIN_ROLE));
    view().grants().stream().filter(g -> g.username().equals(username)).forEach(g -> roles.add(g.role()));
    return roles;
  }

  /** Grants, the global administrator's included, sorted by role then user. */
  public List<Grant> grants() {
    List<Grant> out = new ArrayList<>(view().grants());
    view().users().values().stream().filter(User::globalAdmin).forEach(u -> out.add(new Grant(ADMIN_ROLE, u.name())));
    out.sort((a, b) -> a.role().equals(b.role()) ? a.username().compareTo(b.username()) : a.role().compareTo(b.role()));
    return out;
  }

  public List<Permission> permissions() {
    return view().permissions();
  }

  /** Whether any role of the user may read ({@code write} false) or write namespace {@code namespaceId}. */
  public boolean allows(String username, String namespaceId, boolean write) {
    Set<String> roles = rolesOf(username);
    if (roles.contains(ADMIN_ROLE)) {
      return true;
    }
    return view().permissions().stream().anyMatch(p -> roles.contains(p.role()) && p.allows(namespaceId, write));
  }

  // ---- writes (through the Raft log) ----

  /** Creates the global administrator {@value #ADMIN_USER} once; CONFLICT (from the log) after that. */
  public void createAdmin(String password) {
    if (adminExists()) {
      throw new IllegalStateException("the administrator is already set; log in as " + ADMIN_USER);
    }
    log.createAuthRecord(USER, ADMIN_USER, userValue(passwords.hash(password), true));
  }

  public void createUser(String name, String password) {
    checkName("username", name);
    log.createAuthRecord(USER, name, userValue(passwords.hash(password), false));
  }

  public void changePassword(String name, String password) {
    User current = user(name).orElseThrow(() -> new IllegalArgumentException("user " + name + " does not exist"));
    log.putAuthRecord(USER, name, userValue(passwords.hash(password), current.globalAdmin()));
  }

  /** Deletes a user and its grants; the global administrator cannot be deleted. */
  public void deleteUser(String name) {
    User current = user(name).orElseThrow(() -> new IllegalArgumentException("user " + name + " does not exist"));
    if (current.globalAdmin()) {
      throw new IllegalArgumentException("the global administrator " + name + " cannot be deleted");
    }
    for (Grant g : view().grants()) {
      if (g.username().equals(name)) {
        log.removeAuthRecord(ROLE, g.role() + SEP + name);
      }
    }
    log.removeAuthRecord(USER, name);
  }

  public void grant(String role, String username) {
    checkName("role", role);
    if (role.equals(ADMIN_ROLE)) {
      throw new IllegalArgumentException("role " + ADMIN_ROLE + " belongs to the global administrator only");
    }
    if (user(username).isEmpty()) {
      throw new IllegalArgumentException("user " + username + " does not exist; create it first");
    }
    log.putAuthRecord(ROLE, role + SEP + username, new byte[0]);
  }

  /** Removes the role from {@code username}, or from every user when empty. */
  public void revoke(String role, Optional<String> username) {
    for (Grant g : view().grants()) {
      if (g.role().equals(role) && username.map(g.username()::equals).orElse(true)) {
        log.removeAuthRecord(ROLE, role + SEP + g.username());
      }
    }
  }

  public void addPermission(String role, String resource, String action) {
    checkName("role", role);
    checkName("resource", resource);
    if (!List.of("r", "w", "rw").contains(action)) {
      throw new IllegalArgumentException("action must be r, w or rw, got '" + action + "'");
    }
    log.putAuthRecord(PERMISSION, role + SEP + resource + SEP + action, new byte[0]);
  }

  public void removePermission(String role, String resource, String action) {
    log.removeAuthRecord(PERMISSION, role + SEP + resource + SEP + action);
  }

  // ---- internals ----

  private View view() {
    long version = records.version();
    View current = view;
    if (current.version() == version) {
      return current;
    }
    Map<String, User> users = new TreeMap<>();
    records.list(USER).forEach((name, value) -> readUser(name, value).ifPresent(u -> users.put(name, u)));
    List<Grant> grants = new ArrayList<>();
    records.list(ROLE).keySet().forEach(name -> {
      String[] parts = name.split(SEP, -1);
      if (parts.length == 2) {
        grants.add(new Grant(parts[0], parts[1]));
      }
    });
    List<Permission> permissions = new ArrayList<>();
    records.list(PERMISSION).keySet().forEach(name -> {
      String[] parts = name.split(SEP, -1);
      if (parts.length == 3) {
        permissions.add(new Permission(parts[0], parts[1], parts[2]));
      }
    });
    View next = new View(version, Collections.unmodifiableMap(users), List.copyOf(grants), List.copyOf(permissions));
    view = next;
    return next;
  }

  private static Optional<User> readUser(String name, byte[] value) {
    try {
      JsonNode node = MAPPER.readTree(value);
      return Optional.of(new User(name, node.path("password").asText(""), node.path("globalAdmin").asBoolean(false)));
    } catch (IOException e) {
      return Optional.empty(); // unreadable: no such user (it can be created again)
    }
  }

  private static byte[] userValue(String hash, boolean globalAdmin) {
    ObjectNode node = MAPPER.createObjectNode().put("password", hash).put("globalAdmin", globalAdmin);
    return node.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void checkName(String what, String value) {
    if (value.isEmpty() || value.length() > MAX_NAME) {
      throw new IllegalArgumentException(what + " must have 1 to " + MAX_NAME + " characters");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i)) || Character.isWhitespace(value.charAt(i))) {
        throw new IllegalArgumentException(what + " must not contain spaces or control characters: '" + value + "'");
      }
    }
  }
}
