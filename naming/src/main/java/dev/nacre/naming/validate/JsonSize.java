package dev.nacre.naming.validate;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Size in UTF-8 bytes of a string map written as a compact JSON object, without building it. */
final class JsonSize {
  private JsonSize() {}

  static int ofStringMap(Map<String, String> map) {
    int size = 2; // {}
    boolean first = true;
    for (Map.Entry<String, String> e : map.entrySet()) {
      size += (first ? 0 : 1) + ofString(e.getKey()) + 1 + ofString(e.getValue());
      first = false;
    }
    return size;
  }

  private static int ofString(String s) {
    int size = 2; // quotes
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t') {
        size += 2;
      } else if (c < 0x20) {
        size += 6; // \\u00XX
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
        size += 4;
        i++;
      } else {
        size += String.valueOf(c).getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return size;
  }
}
