package dev.nacre.config;

import static dev.nacre.config.support.Requests.IP;
import static dev.nacre.config.support.Requests.KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.config.support.ConfigNode;
import dev.nacre.config.support.MutableClock;
import dev.nacre.config.support.Requests;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(30)
class SearchAndValidationTest {
  @TempDir Path tmp;
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  ConfigNode node;

  @BeforeEach
  void open() {
    node = ConfigNode.open(tmp.resolve("db"), new ConfigSettings(64, Duration.ofDays(30), 10, 100, 0), clock);
  }

  @AfterEach
  void close() {
    node.close();
  }

  private void put(String namespace, String group, String dataId, String appName, String tags) {
    node.ops().publish(new PublishRequest(new ConfigKey(namespace, group, dataId), "c", "text", appName, "", tags, "",
        "", IP, Optional.empty(), Optional.empty(), Optional.empty())).join();
  }

  @Test
  void accurateSearchMatchesEachGivenFieldExactly() {
    put("", "G1", "a.yaml", "shop", "x,y");
    put("", "G2", "a.yaml", "shop", "");
    put("", "G1", "b.yaml", "bank", "y");
    put("ns1", "G1", "a.yaml", "shop", "");

    assertThat(dataIds(node.ops().search("public", "a.yaml", "", "", "", false, 1, 10)))
        .containsExactly("G1/a.yaml", "G2/a.yaml");
    assertThat(dataIds(node.ops().search("", "", "G1", "", "", false, 1, 10))).containsExactly("G1/a.yaml", "G1/b.yaml");
    assertThat(dataIds(node.ops().search("", "", "", "bank", "", false, 1, 10))).containsExactly("G1/b.yaml");
    assertThat(dataIds(node.ops().search("", "", "", "", "y", false, 1, 10))).containsExactly("G1/a.yaml", "G1/b.yaml");
    assertThat(dataIds(node.ops().search("ns1", "", "", "", "", false, 1, 10))).containsExactly("G1/a.yaml");
    assertThat(dataIds(node.ops().search("", "a.*", "", "", "", false, 1, 10))).isEmpty();
  }

  @Test
  void blurSearchTakesStarsAndPages() {
    for (int i = 0; i < 5; i++) {
      put("", "G", "svc-" + i + ".yaml", "", "");
    }
    put("", "G", "other.yaml", "", "");

    Page<ConfigItem> first = node.ops().search("", "svc-*", "*", "", "", true, 1, 2);
    assertThat(first.totalCount()).isEqualTo(5);
    assertThat(first.pagesAvailable()).isEqualTo(3);
    assertThat(dataIds(first)).containsExactly("G/svc-0.yaml", "G/svc-1.yaml");
    assertThat(dataIds(node.ops().search("", "svc-*", "", "", "", true, 3, 2))).containsExactly("G/svc-4.yaml");
    assertThat(dataIds(node.ops().search("", "*.yaml", "", "", "", true, 1, 10))).hasSize(6);
    assertThat(dataIds(node.ops().search("", "svc-1.yaml", "", "", "", true, 1, 10))).containsExactly("G/svc-1.yaml");
    assertThat(dataIds(node.ops().search("", "svc-*", "", "", "", true, 9, 10))).isEmpty();
  }

  @Test
  void badPagesAreInvalid() {
    assertThatThrownBy(() -> node.ops().search("", "", "", "", "", false, 0, 10))
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.kind()).isEqualTo(ConfigException.Kind.INVALID))
        .hasMessageContaining("pageNo");
    assertThatThrownBy(() -> node.ops().history(KEY, 1, 0)).hasMessageContaining("pageSize");
  }

  private static java.util.List<String> dataIds(Page<ConfigItem> page) {
    return page.pageItems().stream().map(i -> i.key().group() + "/" + i.key().dataId()).toList();
  }

  static PublishRequest request(String namespace, String group, String dataId, String content, String desc,
      String tags, Optional<String> betaIps, Optional<String> tag) {
    return new PublishRequest(new ConfigKey(namespace, group, dataId), content, "text", "", desc, tags, "", "", IP,
        Optional.empty(), betaIps, tag);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "dataId missing      | ''     | G | ''         | c | '' | ''  | -          | -      | invalid dataId",
      "dataId bad char     | ''     | G | a/b        | c | '' | ''  | -          | -      | invalid dataId",
      "dataId too long     | ''     | G | LONG257    | c | '' | ''  | -          | -      | invalid dataId",
      "group missing       | ''     | '' | d         | c | '' | ''  | -          | -      | invalid group",
      "group bad char      | ''     | 'a b' | d      | c | '' | ''  | -          | -      | invalid group",
      "group too long      | ''     | LONG129 | d    | c | '' | ''  | -          | -      | invalid group",
      "namespace bad char  | 'n.s'  | G | d          | c | '' | ''  | -          | -      | invalid namespace",
      "namespace too long  | LONG129 | G | d         | c | '' | ''  | -          | -      | invalid namespace",
      "content blank       | ''     | G | d          | '  ' | '' | '' | -        | -      | content is blank",
      "content too large   | ''     | G | d          | LONG65 | '' | '' | -      | -      | invalid content, over 64",
      "desc too long       | ''     | G | d          | c | LONG129 | '' | -      | -      | too long desc",
      "too many tags       | ''     | G | d          | c | '' | 'a,b,c,d,e,f' | - | -  | too many config_tags",
      "tag too long        | ''     | G | d          | c | '' | ''  | -          | LONG65 | too long tag",
      "tag bad char        | ''     | G | d          | c | '' | ''  | -          | 'a b'  | invalid tag",
      "beta ips not ips    | ''     | G | d          | c | '' | ''  | 'host1'    | -      | invalid betaIps",
      "beta ips bad ipv4   | ''     | G | d          | c | '' | ''  | '1.2.3.256' | -     | invalid betaIps",
      "beta ips blank      | ''     | G | d          | c | '' | ''  | ' '        | -      | betaIps is blank",
      "beta and tag        | ''     | G | d          | c | '' | ''  | '1.2.3.4'  | t      | betaIps and tag",
  })
  void refusedPublishesWriteNothing(String rule, String namespace, String group, String dataId, String content,
      String desc, String tags, String betaIps, String tag, String message) {
    PublishRequest bad = request(expand(namespace), expand(group), expand(dataId), expand(content), expand(desc), tags,
        betaIps.equals("-") ? Optional.empty() : Optional.of(betaIps),
        tag.equals("-") ? Optional.empty() : Optional.of(expand(tag)));
    long applied = node.machine.lastAppliedIndex();

    CompletableFuture<ConfigItem> result = node.ops().publish(bad);

    assertThat(result).isCompletedExceptionally();
    assertThatThrownBy(result::join).isInstanceOf(CompletionException.class).cause()
        .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.kind()).isEqualTo(ConfigException.Kind.INVALID))
        .hasMessageContaining(message);
    assertThat(node.log.submits()).isZero();
    assertThat(node.machine.lastAppliedIndex()).isEqualTo(applied);
    assertThat(node.ops().count()).isZero();
  }

  @Test
  void validEdgeCasesAreAccepted() {
    node.ops().publish(request("ns-1_a", "G.-_:", "a" + "b".repeat(255), "x".repeat(64), "", "a,b,c,d,e",
        Optional.of("1.2.3.4,::1,fe80::1"), Optional.empty())).join();
    node.ops().publish(request("", "G", "d", "c", "", "", Optional.empty(), Optional.of("t".repeat(64)))).join();
    assertThat(node.log.submits()).isEqualTo(2);
  }

  @Test
  void refusedRemovesWriteNothing() {
    CompletableFuture<Boolean> bad = node.ops().remove(new RemoveRequest(new ConfigKey("", "G", "a/b"), false,
        Optional.empty(), "", IP));
    assertThatThrownBy(bad::join).cause().hasMessageContaining("invalid dataId");
    CompletableFuture<Boolean> both = node.ops().remove(new RemoveRequest(KEY, true, Optional.of("t"), "", IP));
    assertThatThrownBy(both::join).cause().hasMessageContaining("beta and tag");
    assertThat(node.log.submits()).isZero();
  }

  private static String expand(String value) {
    if (value.startsWith("LONG")) {
      return "a".repeat(Integer.parseInt(value.substring(4)));
    }
    return value;
  }
}
