package dev.nacre.bench.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** Configuration contents of a given size, the same for the same seed, and their MD5 as Nacos writes it. */
final class Contents {
  private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=\n".toCharArray();

  private Contents() {}

  /** {@code bytes} ASCII characters starting with {@code prefix}, the rest from a seeded generator. */
  static String of(String prefix, long seed, int bytes) {
    StringBuilder s = new StringBuilder(bytes).append(prefix);
    SplittableRandom random = new SplittableRandom(seed);
    while (s.length() < bytes) {
      s.append(ALPHABET[random.nextInt(ALPHABET.length)]);
    }
    return s.toString();
  }

  /** Lower-case hex MD5 of the UTF-8 bytes, as Nacos' {@code md5} fields. */
  static String md5(String content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no MD5", e);
    }
  }
}
