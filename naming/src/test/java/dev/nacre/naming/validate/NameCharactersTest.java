package dev.nacre.naming.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The hand-written character rules agree with the expressions of Nacos' checker on every string tried. */
@Timeout(30)
class NameCharactersTest {
  private static final Pattern SERVICE_NAME = Pattern.compile("^(?!@).((?!@@)[^\\u4E00-\\u9FA5\\s])*$");
  private static final Pattern GROUP = Pattern.compile("^[a-zA-Z0-9-_:.]+$");
  private static final Pattern CLUSTER = Pattern.compile("^[0-9a-zA-Z-_]+$");
  private static final Pattern NAMESPACE_ID = Pattern.compile("^[\\w-]+$");
  private static final Pattern IPV4 =
      Pattern.compile("^((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$");
  /** The characters on the rules' edges, and a few ordinary ones. */
  private static final char[] ALPHABET = ("aZ09_-:.@ \t\n\r\u000B\f\u0085\u2028\u2029\u0001\u007F"
      + "\u4E00\u9FA5\u4DFF\u9FA6\u00E9/#%$&*+=,;\uD83D\uDE00").toCharArray();

  private static void agree(Pattern expression, Predicate<String> loop, long seed) {
    agree(expression, loop, seed, ALPHABET, 6);
  }

  private static void agree(Pattern expression, Predicate<String> loop, long seed, char[] alphabet, int maxLength) {
    Random random = new Random(seed);
    int accepted = 0;
    for (int n = 0; n < 200_000; n++) {
      StringBuilder s = new StringBuilder();
      int length = random.nextInt(maxLength);
      for (int i = 0; i < length; i++) {
        s.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String text = s.toString();
      boolean expected = expression.matcher(text).matches();
      assertThat(loop.test(text)).as("'%s' (seed %d)", text, seed).isEqualTo(expected);
      accepted += expected ? 1 : 0;
    }
    assertThat(accepted).as("the strings tried include accepted ones").isPositive();
  }

  @Test
  void serviceNamesAsNacosChecksThem() {
    agree(SERVICE_NAME, NameCharacters::serviceName, 1);
  }

  @Test
  void groupNamesAsNacosChecksThem() {
    agree(GROUP, NameCharacters::groupName, 2);
  }

  @Test
  void clusterNamesAndNamespaceIdsAsNacosChecksThem() {
    agree(CLUSTER, NameCharacters::wordOrDash, 3);
    agree(NAMESPACE_ID, NameCharacters::wordOrDash, 4);
  }

  @Test
  void ipv4AddressesAsTheExpressionReadsThem() {
    agree(IPV4, HostAddresses::isIpv4, 5, "0125569..x".toCharArray(), 16);
    for (String ip : new String[] {"127.0.0.1", "255.255.255.255", "0.0.0.0", "10.20.30.40"}) {
      assertThat(HostAddresses.isIpv4(ip)).as(ip).isTrue();
    }
    for (String ip : new String[] {"256.1.1.1", "01.1.1.1", "1.1.1", "1.1.1.1.", "1.1.1.1.1", "1..1.1", "1.1.1.1000"}) {
      assertThat(HostAddresses.isIpv4(ip)).as(ip).isFalse();
    }
  }
}
