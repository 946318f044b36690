package dev.nacre.config;

import static dev.nacre.config.support.Requests.KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigListeners.ListenerView;
import dev.nacre.config.api.Revision;
import dev.nacre.config.support.ConfigNode;
import dev.nacre.config.support.MutableClock;
import dev.nacre.config.support.Requests;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class DurabilityAndListenersTest {
  @TempDir Path tmp;
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

  /** Records the keys it hears of. */
  static class Recording implements ConfigListeners.Listener {
    final String clientId;
    final List<ConfigKey> heard = new CopyOnWriteArrayList<>();

    Recording(String clientId) {
      this.clientId = clientId;
    }

    @Override
    public String clientId() {
      return clientId;
    }

    @Override
    public String clientIp() {
      return "10.1.1.1";
    }

    @Override
    public void changed(ConfigKey key) {
      heard.add(key);
    }
  }

  @Test
  void stateAndHistorySurviveARestartAndIdsKeepIncreasing() {
    Path dir = tmp.resolve("db");
    long lastId;
    try (ConfigNode node = ConfigNode.open(dir, ConfigSettings.defaults(), clock)) {
      node.ops().publish(Requests.publish(KEY, "v1")).join();
      node.ops().publish(Requests.beta(KEY, "b", "10.0.0.7")).join();
      node.ops().publish(Requests.tagged(KEY, "t", "canary")).join();
      lastId = node.ops().history(KEY, 1, 1).pageItems().get(0).id();
    }
    try (ConfigNode node = ConfigNode.open(dir, ConfigSettings.defaults(), clock)) {
      assertThat(node.ops().formal(KEY).orElseThrow().content()).isEqualTo("v1");
      assertThat(node.ops().beta(KEY).orElseThrow().betaIps()).isEqualTo("10.0.0.7");
      assertThat(node.ops().tagged(KEY, "canary").orElseThrow().content()).isEqualTo("t");
      assertThat(node.ops().history(KEY, 1, 10).totalCount()).isEqualTo(3);

      node.ops().publish(Requests.publish(KEY, "v2")).join();
      Revision newest = node.ops().history(KEY, 1, 1).pageItems().get(0);
      assertThat(newest.content()).isEqualTo("v2");
      assertThat(newest.id()).isGreaterThan(lastId);
    }
  }

  @Test
  void aSnapshotInstallReplacesTheStateAndTellsListenersOfChangedKeys() throws java.io.IOException {
    ConfigKey other = new ConfigKey("", "G", "unchanged");
    ConfigKey gone = new ConfigKey("", "G", "gone");
    try (ConfigNode leader = ConfigNode.open(tmp.resolve("leader"), ConfigSettings.defaults(), clock);
        ConfigNode follower = ConfigNode.open(tmp.resolve("follower"), ConfigSettings.defaults(), clock)) {
      leader.ops().publish(Requests.publish(KEY, "new")).join();
      leader.ops().publish(Requests.publish(other, "same")).join();
      follower.ops().publish(Requests.publish(KEY, "old")).join();
      follower.ops().publish(Requests.publish(other, "same")).join();
      follower.ops().publish(Requests.publish(gone, "x")).join();
      Recording listener = new Recording("c1");
      follower.config.listeners().listen(listener, KEY, "");
      follower.config.listeners().listen(listener, other, "");
      follower.config.listeners().listen(listener, gone, "");

      Path snapshot = java.nio.file.Files.createDirectories(tmp.resolve("snapshot"));
      leader.machine.writeSnapshot(snapshot);
      follower.machine.installSnapshot(snapshot);

      assertThat(follower.ops().formal(KEY).orElseThrow().content()).isEqualTo("new");
      assertThat(follower.ops().formal(gone)).isEmpty();
      assertThat(follower.ops().history(KEY, 1, 10).pageItems()).extracting(Revision::content).containsExactly("new");
      assertThat(listener.heard).containsExactlyInAnyOrder(KEY, gone);
    }
  }

  @Test
  void listenersHearOfChangesButNotOfTheSameContentAgain() {
    try (ConfigNode node = ConfigNode.open(tmp.resolve("db"), ConfigSettings.defaults(), clock)) {
      Recording a = new Recording("c1");
      Recording b = new Recording("c2");
      ConfigListeners listeners = node.config.listeners();
      listeners.listen(a, KEY, "");
      listeners.listen(b, new ConfigKey("", "G", "other"), "");

      ConfigItem v1 = node.ops().publish(Requests.publish(KEY, "v1")).join();
      assertThat(a.heard).containsExactly(KEY);
      node.ops().publish(Requests.publish(KEY, "v1")).join();
      assertThat(a.heard).containsExactly(KEY);
      node.ops().publish(Requests.beta(KEY, "beta", "10.0.0.7")).join();
      node.ops().publish(Requests.tagged(KEY, "t", "canary")).join();
      node.ops().remove(Requests.remove(KEY)).join();
      assertThat(a.heard).hasSize(4);
      node.ops().remove(Requests.remove(KEY)).join();
      assertThat(a.heard).hasSize(4);
      assertThat(b.heard).isEmpty();

      listeners.listen(a, KEY, v1.md5());
      assertThat(listeners.listenersOf(KEY)).containsExactly(new ListenerView("c1", "10.1.1.1", v1.md5()));
      assertThat(listeners.count()).isEqualTo(2);
      listeners.cancel(a, KEY);
      node.ops().publish(Requests.publish(KEY, "v2")).join();
      assertThat(a.heard).hasSize(4);
      assertThat(listeners.listenersOf(KEY)).isEmpty();
      listeners.cancelAll(b);
      assertThat(listeners.count()).isZero();
    }
  }

  @Test
  void aFailingListenerDoesNotStopTheOthersNorTheWrite() {
    try (ConfigNode node = ConfigNode.open(tmp.resolve("db"), ConfigSettings.defaults(), clock)) {
      Recording good = new Recording("good");
      node.config.listeners().listen(new Recording("bad") {
        @Override
        public void changed(ConfigKey key) {
          throw new IllegalStateException("boom");
        }
      }, KEY, "");
      node.config.listeners().listen(good, KEY, "");
      node.ops().publish(Requests.publish(KEY, "v1")).join();
      assertThat(good.heard).containsExactly(KEY);
      assertThat(node.ops().formal(KEY)).isPresent();
    }
  }

  @Test
  void listenerLimitsPerClientAndPerMember() {
    ConfigSettings settings = new ConfigSettings(1024, Duration.ofDays(30), 2, 3, 0);
    try (ConfigNode node = ConfigNode.open(tmp.resolve("db"), settings, clock)) {
      ConfigListeners listeners = node.config.listeners();
      Recording a = new Recording("c1");
      listeners.listen(a, key(1), "");
      listeners.listen(a, key(2), "");
      listeners.listen(a, key(2), "newer-md5");
      assertThatThrownBy(() -> listeners.listen(a, key(3), ""))
          .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.kind()).isEqualTo(ConfigException.Kind.LIMITED))
          .hasMessageContaining("client c1");
      Recording b = new Recording("c2");
      listeners.listen(b, key(1), "");
      assertThatThrownBy(() -> listeners.listen(b, key(2), ""))
          .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.kind()).isEqualTo(ConfigException.Kind.LIMITED))
          .hasMessageContaining("this member");

      listeners.cancel(a, key(1));
      listeners.listen(b, key(2), "");
      assertThat(listeners.count()).isEqualTo(3);
    }
  }

  @Test
  void publishesPerSecondPerAddress() {
    ConfigSettings settings = new ConfigSettings(1024, Duration.ofDays(30), 10, 10, 2);
    try (ConfigNode node = ConfigNode.open(tmp.resolve("db"), settings, clock)) {
      node.ops().publish(Requests.publish(KEY, "1")).join();
      node.ops().publish(Requests.publish(KEY, "2")).join();
      assertThatThrownBy(() -> node.ops().publish(Requests.publish(KEY, "3")).join()).cause()
          .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.kind()).isEqualTo(ConfigException.Kind.LIMITED));
      var fromElsewhere = new dev.nacre.config.api.PublishRequest(KEY, "4", "", "", "", "", "", "", "10.0.0.2",
          java.util.Optional.empty(), java.util.Optional.empty(), java.util.Optional.empty());
      node.ops().publish(fromElsewhere).join();
      clock.advance(Duration.ofMillis(500));
      node.ops().publish(Requests.publish(KEY, "5")).join();
      assertThat(node.log.submits()).isEqualTo(4);
    }
  }

  private static ConfigKey key(int i) {
    return new ConfigKey("", "G", "d" + i);
  }
}
