package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.config.api.Revision;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configurations on a 3-node Raft group, through each member's operations: a publish on any member
 * is read on every member with the same revision and history; it survives the leader's loss, a
 * restart and a wiped member; a content of the largest allowed size replicates; without a quorum
 * a publish fails with UNAVAILABLE and changes nothing.
 */
@Timeout(240)
class ConfigClusterTest {
  private static final ConfigKey KEY = new ConfigKey("", "DEFAULT_GROUP", "app.properties");
  @TempDir Path dir;

  private static PublishRequest publish(ConfigKey key, String content) {
    return new PublishRequest(key, content, "properties", "app", "", "", "", "tester", "127.0.0.1",
        Optional.empty(), Optional.empty(), Optional.empty());
  }

  private static void awaitLeader(LocalCluster c) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.leader() >= 0);
  }

  private static void awaitContent(LocalCluster c, int node, ConfigKey key, String content) {
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).untilAsserted(() ->
        assertThat(c.node(node).configs().formal(key).map(ConfigItem::content)).as("node %d", node)
            .contains(content));
  }

  @Test
  void publishesOnAnyMemberReachEveryMemberAndSurviveLeaderLossRestartAndWipe() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      for (int i = 0; i < 3; i++) {
        ConfigItem stored = c.node(i).configs().publish(publish(KEY, "v=" + i)).join();
        assertThat(stored.content()).isEqualTo("v=" + i);
      }
      for (int i = 0; i < 3; i++) {
        awaitContent(c, i, KEY, "v=2");
      }
      long revision = c.node(0).configs().formal(KEY).orElseThrow().revision();
      for (int i = 0; i < 3; i++) {
        assertThat(c.node(i).configs().formal(KEY).orElseThrow().revision()).isEqualTo(revision);
        List<Revision> history = c.node(i).configs().history(KEY, 1, 10).pageItems();
        assertThat(history).extracting(Revision::content).containsExactly("v=2", "v=1", "v=0");
        assertThat(history).extracting(Revision::operation).containsExactly("U", "U", "I");
      }

      int oldLeader = c.leader();
      c.stopNode(oldLeader);
      int survivor = (oldLeader + 1) % 3;
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).ignoreExceptions().until(() ->
          c.node(survivor).configs().publish(publish(KEY, "after-leader-loss")).join() != null);
      c.startNode(oldLeader);
      awaitContent(c, oldLeader, KEY, "after-leader-loss");

      c.stopNode(survivor);
      c.wipeNode(survivor);
      c.node(oldLeader).configs().remove(new RemoveRequest(KEY, false, Optional.empty(), "tester", "127.0.0.1"))
          .join();
      c.startNode(survivor);
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
        assertThat(c.node(survivor).configs().formal(KEY)).isEmpty();
        assertThat(c.node(survivor).configs().history(KEY, 1, 10).pageItems()).extracting(Revision::operation)
            .containsExactly("D", "U", "U", "U", "I");
      });
    }
  }

  @Test
  void aContentOfTheLargestAllowedSizeReplicatesAndALargerOneIsRefused() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      int max = c.node(0).config().configs().maxContentBytes();
      String largest = "x".repeat(max);
      int follower = (c.leader() + 1) % 3;
      ConfigKey big = new ConfigKey("", "DEFAULT_GROUP", "big.txt");
      c.node(follower).configs().publish(publish(big, largest)).join();
      for (int i = 0; i < 3; i++) {
        awaitContent(c, i, big, largest);
      }
      assertThatThrownBy(() -> c.node(follower).configs().publish(publish(big, largest + "y")).join())
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(ConfigException.class)
          .satisfies(e -> assertThat(((ConfigException) e.getCause()).kind()).isEqualTo(ConfigException.Kind.INVALID));
      // A small write after the large one still commits: the leader's appender is not stuck.
      c.node(follower).configs().publish(publish(KEY, "small")).join();
      for (int i = 0; i < 3; i++) {
        awaitContent(c, i, KEY, "small");
      }
    }
  }

  @Test
  void withoutAQuorumAPublishFailsAsUnavailableAndChangesNothing() {
    try (LocalCluster c = LocalCluster.start(dir, 3, Map.of())) {
      awaitLeader(c);
      c.node(0).configs().publish(publish(KEY, "before")).join();
      for (int i = 0; i < 3; i++) {
        awaitContent(c, i, KEY, "before");
      }
      int lone = (c.leader() + 1) % 3;
      for (int i = 0; i < 3; i++) {
        if (i != lone) {
          c.stopNode(i);
        }
      }
      assertThatThrownBy(() -> c.node(lone).configs().publish(publish(KEY, "lost")).join())
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(ConfigException.class)
          .satisfies(e -> assertThat(((ConfigException) e.getCause()).kind())
              .isEqualTo(ConfigException.Kind.UNAVAILABLE));
      assertThat(c.node(lone).configs().formal(KEY).map(ConfigItem::content)).contains("before");
    }
  }
}
