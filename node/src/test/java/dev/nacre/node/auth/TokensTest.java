package dev.nacre.node.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class TokensTest {
  private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final Instant T0 = Instant.parse("2026-12-02T12:00:00Z");

  private static Tokens at(Instant now, byte[] key) {
    return new Tokens(key, Duration.ofSeconds(100), Clock.fixed(now, ZoneOffset.UTC));
  }

  @Test
  void aTokenNamesItsUserUntilItExpires() {
    String token = at(T0, KEY).issue("alice");
    assertThat(at(T0.plusSeconds(99), KEY).userOf(token)).isEqualTo("alice");
    assertThatThrownBy(() -> at(T0.plusSeconds(100), KEY).userOf(token))
        .isInstanceOf(AccessDenied.class).hasMessageContaining("expired");
  }

  @Test
  void aTokenOfAnotherKeyOrChangedOrUnsignedIsRefused() {
    String token = at(T0, KEY).issue("alice");
    byte[] otherKey = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> at(T0, otherKey).userOf(token))
        .isInstanceOf(AccessDenied.class).hasMessageContaining("not issued by this cluster");

    // The same signature over a payload that names another user.
    String[] parts = token.split("\\.");
    String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
        ("{\"sub\":\"nacos\",\"exp\":" + (T0.getEpochSecond() + 100) + "}").getBytes(StandardCharsets.UTF_8))
        + "." + parts[2];
    assertThatThrownBy(() -> at(T0, KEY).userOf(forged)).isInstanceOf(AccessDenied.class);

    String unsigned = Base64.getUrlEncoder().withoutPadding().encodeToString(
        "{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "." + parts[1] + ".";
    assertThatThrownBy(() -> at(T0, KEY).userOf(unsigned)).isInstanceOf(AccessDenied.class);
    assertThatThrownBy(() -> at(T0, KEY).userOf("not-a-token")).isInstanceOf(AccessDenied.class)
        .hasMessageContaining("not a JWT");
  }

  @Test
  void passwordsAreHashedWithSaltAndCheckedExactly() {
    Passwords passwords = new Passwords();
    String hash = passwords.hash("s3cret!");
    assertThat(hash).startsWith("$2a$10$").isNotEqualTo(passwords.hash("s3cret!"));
    assertThat(passwords.matches("s3cret!", hash)).isTrue();
    assertThat(passwords.matches("s3cret", hash)).isFalse();
    assertThat(passwords.matches("s3cret!", "not a hash")).isFalse();
    assertThatThrownBy(() -> passwords.hash("x".repeat(73))).isInstanceOf(IllegalArgumentException.class);
  }
}
