package dev.nacre.config;

import static dev.nacre.config.support.Requests.IP;
import static dev.nacre.config.support.Requests.KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigRead;
import dev.nacre.config.support.ConfigNode;
import dev.nacre.config.support.MutableClock;
import dev.nacre.config.support.Requests;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class ConfigOperationsTest {
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

  static ConfigException.Kind failureKind(CompletableFuture<?> future) {
    try {
      future.join();
    } catch (CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(ConfigException.class);
      return ((ConfigException) e.getCause()).kind();
    }
    throw new AssertionError("the future did not fail");
  }

  @Test
  void publishThenReadThenRemove() {
    ConfigItem stored = node.ops().publish(Requests.publish(KEY, "hello")).join();

    assertThat(stored.md5()).isEqualTo("5d41402abc4b2a76b9719d911017c592");
    assertThat(stored.content()).isEqualTo("hello");
    assertThat(stored.type()).isEqualTo("properties");
    assertThat(stored.creator()).isEqualTo("alice");
    assertThat(stored.createdMillis()).isEqualTo(clock.millis());
    assertThat(stored.revision()).isEqualTo(node.machine.lastAppliedIndex());
    assertThat(node.ops().read(KEY, "10.9.9.9", "")).contains(new ConfigRead(stored, false, ""));
    assertThat(node.ops().md5For(KEY, "10.9.9.9", "")).isEqualTo(stored.md5());
    assertThat(node.ops().count()).isEqualTo(1);

    assertThat(node.ops().remove(Requests.remove(KEY)).join()).isTrue();
    assertThat(node.ops().read(KEY, "10.9.9.9", "")).isEmpty();
    assertThat(node.ops().md5For(KEY, "10.9.9.9", "")).isEmpty();
    assertThat(node.ops().remove(Requests.remove(KEY)).join()).isFalse();
  }

  @Test
  void updateKeepsCreationTimeAndMovesModifiedTime() {
    ConfigItem first = node.ops().publish(Requests.publish(KEY, "a=1")).join();
    clock.advance(java.time.Duration.ofSeconds(5));
    ConfigItem second = node.ops().publish(Requests.publish(KEY, "a=2")).join();

    assertThat(second.createdMillis()).isEqualTo(first.createdMillis());
    assertThat(second.modifiedMillis()).isEqualTo(first.modifiedMillis() + 5000);
    assertThat(second.revision()).isGreaterThan(first.revision());
  }

  @Test
  void unknownTypeIsStoredAsText() {
    var request = Requests.publish(KEY, "x");
    var odd = new dev.nacre.config.api.PublishRequest(KEY, "x", "toml", "", "", "", "", "", IP,
        request.casMd5(), request.betaIps(), request.tag());
    assertThat(node.ops().publish(odd).join().type()).isEqualTo("text");
  }

  @Test
  void compareAndSetAppliesOnlyOnTheCurrentMd5AndCreatesAnAbsentConfiguration() {
    // As Nacos: a compare-and-set of a configuration that does not exist creates it, whatever md5
    // it names (Dubbo's mapping publishes send "0" for "not there yet").
    ConfigItem v1 = node.ops().publish(Requests.cas(KEY, "v1", "0")).join();
    assertThat(v1.content()).isEqualTo("v1");

    ConfigItem v2 = node.ops().publish(Requests.cas(KEY, "v2", v1.md5())).join();
    assertThat(v2.content()).isEqualTo("v2");

    assertThat(failureKind(node.ops().publish(Requests.cas(KEY, "v3", v1.md5()))))
        .isEqualTo(ConfigException.Kind.CONFLICT);
    assertThat(node.ops().formal(KEY).orElseThrow().content()).isEqualTo("v2");
  }

  @Test
  void betaGoesToItsAddressesUntilStopped() {
    ConfigItem formal = node.ops().publish(Requests.publish(KEY, "formal")).join();
    ConfigItem beta = node.ops().publish(Requests.beta(KEY, "beta", "10.0.0.7, 10.0.0.8")).join();

    assertThat(beta.betaIps()).isEqualTo("10.0.0.7,10.0.0.8");
    assertThat(node.ops().read(KEY, "10.0.0.8", "")).contains(new ConfigRead(beta, true, ""));
    assertThat(node.ops().read(KEY, "10.0.0.9", "")).contains(new ConfigRead(formal, false, ""));
    assertThat(node.ops().md5For(KEY, "10.0.0.7", "")).isEqualTo(beta.md5());
    assertThat(node.ops().formal(KEY)).contains(formal);

    assertThat(node.ops().remove(Requests.stopBeta(KEY)).join()).isTrue();
    assertThat(node.ops().beta(KEY)).isEmpty();
    assertThat(node.ops().read(KEY, "10.0.0.8", "")).contains(new ConfigRead(formal, false, ""));
  }

  @Test
  void tagContentGoesToReadersOfTheTag() {
    ConfigItem formal = node.ops().publish(Requests.publish(KEY, "formal")).join();
    ConfigItem canary = node.ops().publish(Requests.tagged(KEY, "canary", "canary")).join();

    assertThat(node.ops().read(KEY, IP, "canary")).contains(new ConfigRead(canary, false, "canary"));
    assertThat(node.ops().read(KEY, IP, "other")).isEmpty();
    assertThat(node.ops().read(KEY, IP, "")).contains(new ConfigRead(formal, false, ""));
    assertThat(node.ops().tagged(KEY, "canary")).contains(canary);

    assertThat(node.ops().remove(Requests.removeTag(KEY, "canary")).join()).isTrue();
    assertThat(node.ops().read(KEY, IP, "canary")).isEmpty();
    assertThat(node.ops().formal(KEY)).contains(formal);
  }

  @Test
  void removingTheConfigurationRemovesItsBetaAndTags() {
    node.ops().publish(Requests.publish(KEY, "formal")).join();
    node.ops().publish(Requests.beta(KEY, "beta", "10.0.0.7")).join();
    node.ops().publish(Requests.tagged(KEY, "t", "canary")).join();

    assertThat(node.ops().remove(Requests.remove(KEY)).join()).isTrue();

    assertThat(node.ops().formal(KEY)).isEmpty();
    assertThat(node.ops().beta(KEY)).isEmpty();
    assertThat(node.ops().tagged(KEY, "canary")).isEmpty();
    assertThat(node.ops().read(KEY, "10.0.0.7", "canary")).isEmpty();
  }

  @Test
  void namespacePublicAndEmptyAreOne() {
    node.ops().publish(Requests.publish(new ConfigKey("public", "G", "d"), "x")).join();
    assertThat(node.ops().formal(new ConfigKey("", "G", "d"))).isPresent();
    assertThat(node.ops().formal(new ConfigKey("other", "G", "d"))).isEmpty();
  }

  @Test
  void noQuorumIsUnavailableAndChangesNothing() {
    node.log.setUnavailable(true);
    assertThat(failureKind(node.ops().publish(Requests.publish(KEY, "x")))).isEqualTo(ConfigException.Kind.UNAVAILABLE);
    assertThat(failureKind(node.ops().readBarrier())).isEqualTo(ConfigException.Kind.UNAVAILABLE);
    assertThat(node.ops().formal(KEY)).isEmpty();
  }

  @Test
  void operationsNeedAttach() {
    Config detached = Config.open("x", ConfigSettings.defaults(), clock);
    ThrowingCallable call = detached::operations;
    assertThatThrownBy(call).isInstanceOf(IllegalStateException.class).hasMessageContaining("not attached");
  }

  @Test
  void checksRunOnTheGivenSchedulerUntilTheirHandleCloses() throws Exception {
    java.util.concurrent.ScheduledThreadPoolExecutor scheduler = new java.util.concurrent.ScheduledThreadPoolExecutor(1);
    scheduler.setRemoveOnCancelPolicy(true);
    try {
      AutoCloseable checks = node.config.startChecks(scheduler);
      assertThat(scheduler.getQueue()).hasSize(1);
      checks.close();
      assertThat(scheduler.getQueue()).isEmpty();
    } finally {
      scheduler.shutdownNow();
    }
  }
}
