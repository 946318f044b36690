package dev.nacre.naming.health;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.async.PeriodicTask;
import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.support.NamingFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The schedulers call the same checks the other tests drive by hand. */
@Timeout(30)
class SchedulingTest {
  @TempDir Path dir;
  NamingFixture f;
  ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @BeforeEach
  void setUp() {
    NamingConfig d = NamingConfig.defaults();
    NamingConfig fast = new NamingConfig(Duration.ofMillis(20), d.defaultBeatInterval(),
        d.defaultHeartBeatTimeout(), d.defaultIpDeleteTimeout(), Duration.ofMillis(20), d.probeTimeout(),
        d.probeThreads(), d.metadataMaxBytes(), d.serviceNameMaxLength(), d.cpWriteTimeout(), d.overrideRetention(), d.limits());
    f = new NamingFixture(dir.resolve("db"), fast);
  }

  @AfterEach
  void tearDown() {
    scheduler.shutdownNow();
    f.close();
  }

  @Test
  void heartbeatSchedulerRemovesSilentInstances() {
    f.ops.registerInstance(instance("10.0.0.1", 80, true));
    PeriodicTask task = new HeartbeatChecker(f.ephemeral, f.config, f.clock).start(scheduler);
    try {
      f.clock.advance(Duration.ofSeconds(31));
      await().atMost(Duration.ofSeconds(10)).until(() -> f.index.instance(key("10.0.0.1", 80)).isEmpty());
    } finally {
      task.close();
    }
  }

  @Test
  void probeSchedulerUpdatesHealth() {
    f.ops.createService(ServiceInfo.defaults(SERVICE));
    InstanceKey key = new InstanceKey(SERVICE, "DEFAULT", "127.0.0.1", 9);
    f.ops.registerInstance(new Instance(key, 1, true, true, false, Map.of()));
    try (PersistentHealthProber prober =
        new PersistentHealthProber(f.index, f.config, s -> true, (h, p, c) -> false, (h, p, c) -> true)) {
      PeriodicTask task = prober.start(scheduler);
      await().atMost(Duration.ofSeconds(10)).until(() -> !f.index.instance(key, false).orElseThrow().healthy());
      task.close();
    }
  }

  @Test
  void aFailingRunDoesNotStopTheSchedule() {
    AtomicInteger runs = new AtomicInteger();
    PeriodicTask task = PeriodicTask.start(scheduler, Duration.ofMillis(10), "flaky", () -> {
      runs.incrementAndGet();
      throw new IllegalStateException("boom");
    });
    await().atMost(Duration.ofSeconds(10)).until(() -> runs.get() >= 3);
    task.close();
  }
}
