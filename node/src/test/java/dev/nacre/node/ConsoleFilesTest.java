package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The console's files over a real node's HTTP port: each at its path with its content type, the
 * page at {@code /} and {@code /nacos/} too, and nothing else under those paths, however the
 * request spells {@code ..}. Requests go over a raw socket so that no client normalizes the path.
 */
@Timeout(60)
@ExtendWith(TestNodePerClass.class)
class ConsoleFilesTest {
  static TestNode node;

  /** Status line, headers and body of a GET sent byte for byte as given. */
  private record Answer(int status, String headers, String body) {
    String header(String name) {
      Matcher m = Pattern.compile("(?im)^" + Pattern.quote(name) + ":\\s*(.*?)\\r?$").matcher(headers);
      return m.find() ? m.group(1) : "";
    }
  }

  private static Answer get(String rawPath) {
    String raw = node.http.raw("GET " + rawPath + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    int end = raw.indexOf("\r\n\r\n");
    assertThat(end).as("an HTTP answer to GET %s: %s", rawPath, raw).isPositive();
    String head = raw.substring(0, end);
    int status = Integer.parseInt(head.substring(9, 12));
    return new Answer(status, head, raw.substring(end + 4));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/nacos", "/nacos/", "/nacos/index.html"})
  void thePageIsServedAtTheRootAndUnderNacos(String path) {
    Answer a = get(path);
    assertThat(a.status()).isEqualTo(200);
    assertThat(a.header("Content-Type")).isEqualTo("text/html;charset=UTF-8");
    assertThat(a.body()).contains("<title>Nacre console</title>");
  }

  @Test
  void everyFileThePageLoadsIsServedWithItsContentType() {
    String page = get("/nacos/").body();
    Matcher refs = Pattern.compile("(?:src|href)=\"([^\"]+)\"").matcher(page);
    int found = 0;
    while (refs.find()) {
      String path = refs.group(1);
      Answer a = get(path);
      assertThat(a.status()).as("GET %s", path).isEqualTo(200);
      assertThat(a.header("Content-Length")).isEqualTo(String.valueOf(a.body().length()));
      if (path.endsWith(".js")) {
        assertThat(a.header("Content-Type")).isEqualTo("text/javascript;charset=UTF-8");
        assertThat(a.body()).contains("'use strict';");
      } else {
        assertThat(path).endsWith(".css");
        assertThat(a.header("Content-Type")).isEqualTo("text/css;charset=UTF-8");
      }
      found++;
    }
    assertThat(found).as("the page's five scripts and style sheet").isEqualTo(6);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "/nacos/../pom.xml",
      "/nacos/../../../../etc/passwd",
      "/nacos/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "/nacos/..%2f..%2f..%2fetc%2fpasswd",
      "/nacos/console.js/../../logback-test.xml",
      "/nacos/..\\..\\logback-test.xml",
      "/nacos/./console.js",
      "/nacos//console.js",
      "/nacos/logback-test.xml",
      "/nacos/ConsoleFiles.class",
      "/dev/nacre/node/console/console.js",
      "/logback-test.xml"})
  void noOtherPathReachesAFile(String path) {
    Answer a = get(path);
    assertThat(a.status()).as("GET %s", path).isEqualTo(404);
    assertThat(a.body()).startsWith("caused: no API at ").doesNotContain("root:").doesNotContain("<configuration>");
  }

  @Test
  void onlyGetIsAnswered() {
    String raw = node.http.raw("POST /nacos/console.js HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
        + "Connection: close\r\n\r\n");
    assertThat(raw).startsWith("HTTP/1.1 405");
  }
}
