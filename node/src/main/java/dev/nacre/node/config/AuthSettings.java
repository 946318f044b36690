package dev.nacre.node.config;

import java.time.Duration;
import java.util.Base64;

/**
 * Client authentication, under Nacos' own setting names so that a Nacos configuration carries
 * over. Off by default, as in Nacos; unlike Nacos, no token key ships with Nacre: a node with auth
 * on and no key of its own refuses to start.
 *
 * @param enabled {@code nacos.core.auth.enabled}: HTTP (v1, v2) and the client gRPC port ask for an
 *     access token
 * @param tokenKey {@code nacos.core.auth.plugin.nacos.token.secret.key}, Base64-decoded: signs the
 *     tokens; the same on every member, so a token from one member works on all
 * @param tokenTtl {@code nacos.core.auth.plugin.nacos.token.expire.seconds} (Nacos: 18000)
 */
public record AuthSettings(boolean enabled, byte[] tokenKey, Duration tokenTtl) {
  public static final String ENABLED = "nacos.core.auth.enabled";
  public static final String TOKEN_KEY = "nacos.core.auth.plugin.nacos.token.secret.key";
  public static final String TOKEN_TTL = "nacos.core.auth.plugin.nacos.token.expire.seconds";
  /** HMAC-SHA256 wants at least this many key bytes; Nacos asks the same of its key. */
  public static final int MIN_KEY_BYTES = 32;

  public AuthSettings {
    tokenKey = tokenKey.clone();
    if (enabled && tokenKey.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException(ENABLED + "=true needs " + TOKEN_KEY + ": a Base64 key of "
          + MIN_KEY_BYTES + " bytes or more, the same on every member (for example the output of"
          + " `openssl rand -base64 32`). Nacre ships no key; this one "
          + (tokenKey.length == 0 ? "is not set" : "decodes to " + tokenKey.length + " bytes") + ".");
    }
    if (tokenTtl.isNegative() || tokenTtl.isZero()) {
      throw new IllegalArgumentException(TOKEN_TTL + " must be positive, got " + tokenTtl.toSeconds());
    }
  }

  @Override
  public byte[] tokenKey() {
    return tokenKey.clone();
  }

  public static AuthSettings off() {
    return new AuthSettings(false, new byte[0], Duration.ofSeconds(18_000));
  }

  static AuthSettings from(Settings s) {
    boolean enabled = s.bool(ENABLED, false);
    String key = s.string(TOKEN_KEY, "");
    byte[] decoded;
    try {
      decoded = Base64.getDecoder().decode(key);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(TOKEN_KEY + " is not Base64 (" + e.getMessage()
          + "); generate one with `openssl rand -base64 32`", e);
    }
    return new AuthSettings(enabled, decoded,
        Duration.ofSeconds(s.longValue(TOKEN_TTL, 18_000, 1, Duration.ofDays(365).toSeconds())));
  }

  @Override
  public String toString() {
    return "AuthSettings[enabled=" + enabled + ", tokenKey=" + (tokenKey.length == 0 ? "none" : "set")
        + ", tokenTtl=" + tokenTtl + "]";
  }
}
