package dev.nacre.node;

import static dev.nacre.node.TestNode.NS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of bad input gets a clear 4xx in Nacos' format and changes nothing. */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class BadInputTest {
  static TestNode node;

  @BeforeAll
  static void start() {
    assertThat(node.http.post(NS + "/instance", Map.of("serviceName", "keep", "ip", "127.9.9.9", "port", "1")).status()).isEqualTo(200);
  }

  private static Map<String, String> valid() {
    return new HashMap<>(Map.of("serviceName", "bad", "ip", "127.0.0.1", "port", "80"));
  }

  private static Map<String, String> with(String key, String value) {
    Map<String, String> m = valid();
    if (value == null) {
      m.remove(key);
    } else {
      m.put(key, value);
    }
    return m;
  }

  static Stream<Arguments> badRegistrations() {
    return Stream.of(
        Arguments.of("missing serviceName", with("serviceName", null), "serviceName"),
        Arguments.of("missing ip", with("ip", null), "ip"),
        Arguments.of("missing port", with("port", null), "port"),
        Arguments.of("port zero", with("port", "0"), "port"),
        Arguments.of("port too big", with("port", "65536"), "port"),
        Arguments.of("port not a number", with("port", "http"), "port"),
        Arguments.of("ip not an address", with("ip", "not an ip!"), "ip"),
        Arguments.of("ip bad ipv4", with("ip", "300.1.1.1"), "ip"),
        Arguments.of("negative weight", with("weight", "-1"), "weight"),
        Arguments.of("weight too big", with("weight", "10001"), "weight"),
        Arguments.of("weight NaN", with("weight", "NaN"), "weight"),
        Arguments.of("metadata not JSON", with("metadata", "{\"a\":"), "metadata"),
        Arguments.of("metadata too large", with("metadata", "{\"a\":\"" + "x".repeat(17 * 1024) + "\"}"), "metadata"),
        Arguments.of("service name too long", with("serviceName", "s".repeat(513)), "serviceName"),
        Arguments.of("service name illegal chars", with("serviceName", "bad name<>"), "serviceName"),
        Arguments.of("group@@ without name", with("serviceName", "grp@@"), "serviceName"),
        Arguments.of("cluster name illegal", with("clusterName", "a b"), "cluster"),
        Arguments.of("preserved timeout not a number", with("metadata", "{\"preserved.heart.beat.timeout\":\"soon\"}"), "preserved"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRegistrations")
  void registrationIsRefused(String why, Map<String, String> params, String mentions) {
    for (Map<String, String> p : List.of(params, withEphemeralFalse(params))) {
      var r = node.http.postForm(NS + "/instance", p);
      assertThat(r.status()).as(why).isEqualTo(400);
      assertThat(r.body()).as(why).startsWith("caused: ").containsIgnoringCase(mentions);
    }
    assertUntouched();
  }

  private static Map<String, String> withEphemeralFalse(Map<String, String> p) {
    Map<String, String> m = new HashMap<>(p);
    m.put("ephemeral", "false");
    return m;
  }

  @Test
  void unknownPathIs404AndWrongMethodIs405() {
    var r = node.http.get("/nacos/v1/ns/nothing-here", Map.of());
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.body()).startsWith("caused: ");
    assertThat(node.http.send("POST", NS + "/instance/list", null).status()).isEqualTo(405);
    assertUntouched();
  }

  @Test
  void oversizedBodyIs413() {
    String big = "metadata=" + "x".repeat(2 * 1024 * 1024);
    var r = node.http.send("POST", NS + "/instance?serviceName=big&ip=10.0.0.1&port=1", big);
    assertThat(r.status()).isEqualTo(413);
    assertThat(r.body()).startsWith("caused: request body larger than").contains("nacre.http.max-body-bytes");
    assertThat(node.list("big").get("hosts")).isEmpty();
    assertUntouched();
  }

  @Test
  void malformedEncodingIs400() {
    String raw = node.http.raw("GET " + NS + "/instance/list?serviceName=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assertThat(raw).startsWith("HTTP/1.1 400");
    String longLine = node.http.raw("GET " + NS + "/instance/list?serviceName=" + "a".repeat(70_000) + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assertThat(longLine).startsWith("HTTP/1.1 414").contains("form body");
    String garbage = node.http.raw("\u0000\u0001 not http at all\r\n\r\n");
    assertThat(garbage).startsWith("HTTP/1.1 400");
    var beat = node.http.put(NS + "/instance/beat", Map.of("serviceName", "keep", "beat", "{not json"));
    assertThat(beat.status()).isEqualTo(400);
    assertUntouched();
  }

  @Test
  void badServiceParameters() {
    assertThat(node.http.post(NS + "/service", Map.of("serviceName", "t", "protectThreshold", "1.5")).status()).isEqualTo(400);
    assertThat(node.http.post(NS + "/service", Map.of("serviceName", "t", "protectThreshold", "x")).status()).isEqualTo(400);
    assertThat(node.http.post(NS + "/service", Map.of("serviceName", "t", "selector", "[]")).status()).isEqualTo(400);
    assertThat(node.http.get(NS + "/service/list", Map.of("pageNo", "0", "pageSize", "10")).status()).isEqualTo(400);
    assertThat(node.http.get(NS + "/service", Map.of("serviceName", "t")).status()).isEqualTo(404);
    assertThat(node.http.put(NS + "/operator/log", Map.of("logName", "naming-server", "logLevel", "LOUD")).status()).isEqualTo(400);
    assertUntouched();
  }

  private static void assertUntouched() {
    var hosts = node.list("keep").get("hosts");
    assertThat(hosts).hasSize(1);
    assertThat(node.list("bad").get("hosts")).isEmpty();
  }
}
