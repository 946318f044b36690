package dev.nacre.naming.validate;

/**
 * The character rules of Nacos' parameter checker, written as loops: every registration and query
 * checks four names, and the regular expressions they replace were a measurable share of the
 * client port's CPU. {@code NameCharactersTest} holds the expressions and checks these against them.
 */
final class NameCharacters {
  private NameCharacters() {}

  /** Service names: no leading '@', no "@@" (it separates group and name), no CJK, no whitespace. */
  static boolean serviceName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    char first = s.charAt(0);
    if (first == '@' || isLineTerminator(first)) {
      return false; // the expression lets the first character be anything else, even a space
    }
    for (int i = 1; i < s.length(); i++) {
      char c = s.charAt(i);
      if ((c >= '\u4E00' && c <= '\u9FA5') || isRegexSpace(c) || (c == '@' && s.charAt(i - 1) == '@')) {
        return false;
      }
    }
    return true;
  }

  /** Group names: {@code [a-zA-Z0-9-_:.]+}. */
  static boolean groupName(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!isWordChar(c) && c != '-' && c != ':' && c != '.') {
        return false;
      }
    }
    return !s.isEmpty();
  }

  /** Cluster names and namespace ids: {@code [0-9a-zA-Z-_]+}. */
  static boolean wordOrDash(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!isWordChar(c) && c != '-') {
        return false;
      }
    }
    return !s.isEmpty();
  }

  private static boolean isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  /** {@code \s} without UNICODE_CHARACTER_CLASS. */
  private static boolean isRegexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
  }

  /** What {@code .} does not match without DOTALL. */
  private static boolean isLineTerminator(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }
}
