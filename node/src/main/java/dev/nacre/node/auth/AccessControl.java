package dev.nacre.node.auth;

import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.config.NodeConfig;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.LoggerFactory;

/**
 * Decides who may do what when client authentication is on: a request needs a token this cluster
 * issued to a user that still exists, and that user needs the global administrator's role or a
 * permission on the namespace. With authentication off every request passes (Nacos' default).
 * Nothing else is trusted: no header such as {@code User-Agent}, no path, no source address.
 * Thread-safe.
 */
public final class AccessControl {
  /** What a request needs. */
  public enum Need {
    /** Any user that logged in. */
    USER,
    /** The global administrator. */
    ADMIN,
    /** Read access to the request's namespace. */
    READ,
    /** Write access to the request's namespace. */
    WRITE
  }

  /** A successful login: the token, how long it lives, whether the user is the administrator. */
  public record Login(String username, String accessToken, long tokenTtlSeconds, boolean globalAdmin) {}

  private final boolean enabled;
  private final AuthDirectory directory;
  private final Tokens tokens;

  public AccessControl(AuthSettings settings, AuthDirectory directory, Clock clock) {
    this.enabled = settings.enabled();
    this.directory = directory;
    this.tokens = settings.enabled() ? new Tokens(settings.tokenKey(), settings.tokenTtl(), clock) : null;
  }

  public boolean enabled() {
    return enabled;
  }

  public AuthDirectory directory() {
    return directory;
  }

  /**
   * Checks a request; returns the user it acts as (empty with authentication off).
   *
   * @param namespaceId the namespace a READ or WRITE touches ("" means public)
   * @throws AccessDenied with a message that says what to do
   */
  public Optional<String> check(Optional<String> accessToken, Need need, String namespaceId) {
    if (!enabled) {
      return Optional.empty();
    }
    if (!directory.adminExists()) {
      throw new AccessDenied("authentication is on but no administrator is set: set the password of '"
          + AuthDirectory.ADMIN_USER + "' once with POST /nacos/v1/auth/users/admin (form field password),"
          + " then log in with POST /nacos/v1/auth/login");
    }
    String token = accessToken.orElseThrow(() -> new AccessDenied("no access token: log in with POST"
        + " /nacos/v1/auth/login (username, password) and send the accessToken it returns as a parameter"
        + " or header (the Nacos clients do so when given username and password)"));
    String user = tokens.userOf(token);
    if (directory.user(user).isEmpty()) {
      throw new AccessDenied("user " + user + " no longer exists; log in as another user");
    }
    String namespace = namespaceId == null || namespaceId.isEmpty() ? "public" : namespaceId;
    boolean allowed = switch (need) {
      case USER -> true;
      case ADMIN -> directory.rolesOf(user).contains(AuthDirectory.ADMIN_ROLE);
      case READ -> directory.allows(user, namespace, false);
      case WRITE -> directory.allows(user, namespace, true);
    };
    if (!allowed) {
      throw new AccessDenied(switch (need) {
        case ADMIN -> "authorization failed: user " + user + " is not the administrator";
        default -> "authorization failed: user " + user + " may not " + (need == Need.READ ? "read" : "write")
            + " namespace " + namespace + "; the administrator grants it with POST /nacos/v1/auth/permissions"
            + " (role of the user, resource " + namespace + ":*:*, action " + (need == Need.READ ? "r" : "w") + ")";
      });
    }
    return Optional.of(user);
  }

  /** The client port's check: why a read or write of the namespace is refused, or empty when allowed. */
  public Optional<String> namespaceRefusal(Optional<String> accessToken, String namespaceId, boolean write) {
    try {
      check(accessToken, write ? Need.WRITE : Need.READ, namespaceId);
      return Optional.empty();
    } catch (AccessDenied e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Logs a user in. With authentication off the answer carries no token (the Nacos clients then
   * send none, which is what such a node expects).
   *
   * @throws AccessDenied for an unknown user or a wrong password (the same answer for both)
   */
  public Login login(String username, String password) {
    if (!enabled) {
      return new Login(username, "", 0, false);
    }
    boolean ok = directory.user(username)
        .map(u -> directory.passwords().matches(password, u.passwordHash()))
        .orElse(false);
    if (!ok) {
      throw new AccessDenied("login failed: unknown user or wrong password");
    }
    return new Login(username, tokens.issue(username), tokens.ttl().toSeconds(),
        directory.rolesOf(username).contains(AuthDirectory.ADMIN_ROLE));
  }

  /** A node that other hosts can reach, with anyone allowed to change the registry, says so. */
  public static void warnIfOpen(NodeConfig config) {
    boolean loopback;
    try {
      loopback = java.net.InetAddress.getByName(config.bind()).isLoopbackAddress();
    } catch (java.net.UnknownHostException e) {
      loopback = false;
    }
    if (!config.auth().enabled() && !loopback) {
      LoggerFactory.getLogger(AccessControl.class).warn("[{}] listening on {} with client authentication OFF:"
          + " anyone who reaches this address can change the registry. Set {}=true and {} (see"
          + " conf/nacre.properties.example).", config.address(), config.bind(), AuthSettings.ENABLED,
          AuthSettings.TOKEN_KEY);
    }
  }
}
