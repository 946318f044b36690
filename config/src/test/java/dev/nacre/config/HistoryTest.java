package dev.nacre.config;

import static dev.nacre.config.support.Requests.KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.Revision;
import dev.nacre.config.operations.LogConfigOperations;
import dev.nacre.config.support.ConfigNode;
import dev.nacre.config.support.MutableClock;
import dev.nacre.config.support.Requests;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class HistoryTest {
  @TempDir Path tmp;
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  ConfigNode node;

  @BeforeEach
  void open() {
    node = ConfigNode.open(tmp.resolve("db"), ConfigSettings.defaults(), clock);
  }

  @AfterEach
  void close() {
    node.close();
  }

  @Test
  void everyPublishAndDeleteIsARevisionNewestFirst() {
    node.ops().publish(Requests.publish(KEY, "v1")).join();
    node.ops().publish(Requests.publish(KEY, "v2")).join();
    node.ops().publish(Requests.publish(new ConfigKey("", "DEFAULT_GROUP", "app.properties2"), "other")).join();
    node.ops().remove(Requests.remove(KEY)).join();

    Page<Revision> page = node.ops().history(KEY, 1, 10);
    assertThat(page.totalCount()).isEqualTo(3);
    assertThat(page.pageItems()).extracting(Revision::operation).containsExactly("D", "U", "I");
    assertThat(page.pageItems()).extracting(Revision::content).containsExactly("v2", "v2", "v1");
    assertThat(page.pageItems()).extracting(Revision::id).isSortedAccordingTo((a, b) -> Long.compare(b, a));
    Revision delete = page.pageItems().get(0);
    assertThat(delete.user()).isEqualTo("bob");
    assertThat(delete.md5()).isEqualTo(dev.nacre.config.state.Records.md5("v2"));
    assertThat(delete.publishType()).isEqualTo("formal");

    Page<Revision> second = node.ops().history(KEY, 2, 2);
    assertThat(second.pagesAvailable()).isEqualTo(2);
    assertThat(second.pageItems()).extracting(Revision::operation).containsExactly("I");
  }

  @Test
  void oneRevisionByIdAndTheOneBefore() {
    node.ops().publish(Requests.publish(KEY, "v1")).join();
    node.ops().publish(Requests.publish(KEY, "v2")).join();
    List<Revision> all = node.ops().history(KEY, 1, 10).pageItems();
    Revision v2 = all.get(0);
    Revision v1 = all.get(1);

    assertThat(node.ops().revision(KEY, v2.id())).contains(v2);
    assertThat(node.ops().revision(KEY, v2.id() + 1)).isEmpty();
    assertThat(node.ops().revision(new ConfigKey("", "DEFAULT_GROUP", "nope"), v2.id())).isEmpty();
    assertThat(node.ops().previous(KEY, v2.id())).contains(v1);
    assertThat(node.ops().previous(KEY, v1.id())).isEmpty();
    assertThat(node.ops().previous(KEY, v2.id() + 1_000_000)).contains(v2);
  }

  @Test
  void betaAndTagRevisionsSayWhatTheyAre() {
    node.ops().publish(Requests.beta(KEY, "b", "10.0.0.7")).join();
    node.ops().publish(Requests.tagged(KEY, "t", "canary")).join();
    List<Revision> all = node.ops().history(KEY, 1, 10).pageItems();
    assertThat(all).extracting(Revision::publishType).containsExactly("tag", "beta");
    assertThat(all.get(0).tag()).isEqualTo("canary");
  }

  @Test
  void operationsOfOneEntryGetDistinctIncreasingIds() {
    node.log.hold();
    CompletableFuture<ConfigItem> a = node.ops().publish(Requests.publish(KEY, "a"));
    CompletableFuture<ConfigItem> b = node.ops().publish(Requests.publish(KEY, "b"));
    node.log.flush();
    assertThat(a.join().revision()).isEqualTo(b.join().revision());

    List<Revision> all = node.ops().history(KEY, 1, 10).pageItems();
    assertThat(all).extracting(Revision::content).containsExactly("b", "a");
    assertThat(all.get(0).id()).isEqualTo(all.get(1).id() + 1);
    assertThat(all.get(0).operation()).isEqualTo("U");
  }

  @Test
  void purgeDropsOnlyOldRevisionsAndIsIdempotent() {
    node.ops().publish(Requests.publish(KEY, "old")).join();
    clock.advance(Duration.ofDays(31));
    node.ops().publish(Requests.publish(KEY, "new")).join();
    LogConfigOperations ops = (LogConfigOperations) node.ops();
    long before = clock.millis() - Duration.ofDays(30).toMillis();

    assertThat(ops.purgeHistory(before, 100).join()).isEqualTo(1);
    assertThat(ops.purgeHistory(before, 100).join()).isZero();

    assertThat(node.ops().history(KEY, 1, 10).pageItems()).extracting(Revision::content).containsExactly("new");
    assertThat(node.ops().formal(KEY).orElseThrow().content()).isEqualTo("new");
  }

  @Test
  void purgeStopsAtItsLimit() {
    for (int i = 0; i < 5; i++) {
      node.ops().publish(Requests.publish(KEY, "v" + i)).join();
    }
    clock.advance(Duration.ofDays(40));
    LogConfigOperations ops = (LogConfigOperations) node.ops();
    assertThat(ops.purgeHistory(clock.millis(), 3).join()).isEqualTo(3);
    assertThat(node.ops().history(KEY, 1, 10).pageItems()).extracting(Revision::content).containsExactly("v4", "v3");
  }

  @Test
  void purgerRoundDrainsTheBacklog() {
    for (int i = 0; i < 3; i++) {
      node.ops().publish(Requests.publish(KEY, "v" + i)).join();
    }
    clock.advance(Duration.ofDays(31));
    new dev.nacre.config.operations.HistoryPurger("test", (LogConfigOperations) node.ops(), Duration.ofDays(30), clock)
        .purgeOnce();
    assertThat(node.ops().history(KEY, 1, 10).totalCount()).isZero();
  }
}
