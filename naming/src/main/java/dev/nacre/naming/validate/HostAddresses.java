package dev.nacre.naming.validate;

import java.util.regex.Pattern;

/**
 * Recognises what may stand in an instance's {@code ip} field: an IPv4 literal, an IPv6 literal
 * (optionally with a zone), or a host name. Purely textual: never resolves anything, so a
 * registration cannot block on DNS.
 */
final class HostAddresses {
  // Labels of letters, digits and hyphens (underscore tolerated: some container platforms use it).
  private static final Pattern HOST_LABEL = Pattern.compile("^[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$");
  private static final Pattern HEX_GROUP = Pattern.compile("^[0-9A-Fa-f]{1,4}$");
  private static final Pattern ZONE = Pattern.compile("^[0-9A-Za-z._-]+$");

  private HostAddresses() {}

  static boolean isValid(String host) {
    return isIpv4(host) || isIpv6(host) || isHostName(host);
  }

  /** Four dot-separated decimals of 0-255 without leading zeros (a loop: every registration checks one). */
  static boolean isIpv4(String s) {
    int parts = 0;
    int i = 0;
    while (parts < 4) {
      int start = i;
      int value = 0;
      while (i < s.length() && i - start < 4 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        value = value * 10 + (s.charAt(i++) - '0');
      }
      int digits = i - start;
      if (digits == 0 || digits > 3 || value > 255 || (digits > 1 && s.charAt(start) == '0')) {
        return false;
      }
      parts++;
      if (parts < 4) {
        if (i >= s.length() || s.charAt(i) != '.') {
          return false;
        }
        i++;
      }
    }
    return i == s.length();
  }

  static boolean isHostName(String s) {
    String name = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    if (name.isEmpty() || name.length() > 253) {
      return false;
    }
    String[] labels = name.split("\\.", -1);
    for (String label : labels) {
      if (!HOST_LABEL.matcher(label).matches()) {
        return false;
      }
    }
    // An all-numeric dotted name is a malformed IPv4 address, not a host name.
    return !labels[labels.length - 1].chars().allMatch(Character::isDigit);
  }

  static boolean isIpv6(String s) {
    String addr = s;
    int zone = addr.indexOf('%');
    if (zone >= 0) {
      if (!ZONE.matcher(addr.substring(zone + 1)).matches()) {
        return false;
      }
      addr = addr.substring(0, zone);
    }
    if (!addr.contains(":")) {
      return false;
    }
    int doubleColon = addr.indexOf("::");
    if (doubleColon >= 0 && addr.indexOf("::", doubleColon + 1) >= 0) {
      return false;
    }
    int groups = 0;
    String[] parts = addr.split(":", -1);
    for (int i = 0; i < parts.length; i++) {
      String part = parts[i];
      if (part.isEmpty()) {
        continue; // belongs to "::" (checked above) or is a lone leading/trailing colon (below)
      }
      if (i == parts.length - 1 && part.contains(".")) {
        if (!isIpv4(part)) {
          return false;
        }
        groups += 2;
      } else if (HEX_GROUP.matcher(part).matches()) {
        groups++;
      } else {
        return false;
      }
    }
    if (addr.startsWith(":") && !addr.startsWith("::") || addr.endsWith(":") && !addr.endsWith("::")) {
      return false;
    }
    return doubleColon >= 0 ? groups < 8 : groups == 8;
  }
}
