package dev.nacre.node.auth;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/** Password hashes in BCrypt's format (as Nacos stores them), by BouncyCastle. Thread-safe. */
final class Passwords {
  /** BCrypt reads at most 72 bytes of a password; longer ones are refused, not cut. */
  static final int MAX_BYTES = 72;
  private static final int COST = 10;
  private final SecureRandom random = new SecureRandom();

  String hash(String password) {
    check(password);
    byte[] salt = new byte[16];
    random.nextBytes(salt);
    return OpenBSDBCrypt.generate("2a", password.toCharArray(), salt, COST);
  }

  boolean matches(String password, String hash) {
    if (password.isEmpty() || password.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      return false;
    }
    try {
      return OpenBSDBCrypt.checkPassword(hash, password.toCharArray());
    } catch (IllegalArgumentException | org.bouncycastle.crypto.DataLengthException e) {
      return false; // a stored hash we cannot read matches nothing
    }
  }

  static void check(String password) {
    int bytes = password.getBytes(StandardCharsets.UTF_8).length;
    if (bytes == 0 || bytes > MAX_BYTES) {
      throw new IllegalArgumentException("a password must have 1 to " + MAX_BYTES + " bytes (UTF-8), got " + bytes);
    }
  }
}
