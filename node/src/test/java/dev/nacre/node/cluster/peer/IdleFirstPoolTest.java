package dev.nacre.node.cluster.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class IdleFirstPoolTest {
  private final ThreadPoolExecutor pool = IdleFirstPool.create("idle-first-test-", 4, 30);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void tasksOneAfterAnotherRunOnTheOneIdleThread() throws Exception {
    Set<String> threads = ConcurrentHashMap.newKeySet();
    for (int i = 0; i < 50; i++) {
      if (i > 0) {
        // The last task's thread is back waiting for work: the next task must go to it.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> idleThreadWaits());
      }
      pool.submit(() -> threads.add(Thread.currentThread().getName())).get(5, TimeUnit.SECONDS);
    }
    assertThat(threads).hasSize(1);
    assertThat(pool.getLargestPoolSize()).isEqualTo(1);
  }

  @Test
  void busyThreadsMakeNewOnesUpToTheMaximumThenTasksWait() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(4);
    List<Future<?>> tasks = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      tasks.add(pool.submit(() -> {
        started.countDown();
        release.await();
        return null;
      }));
    }
    assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(pool.getPoolSize()).isEqualTo(4);

    Future<String> fifth = pool.submit(() -> Thread.currentThread().getName());
    assertThat(pool.getQueue()).hasSize(1);
    assertThat(pool.getPoolSize()).isEqualTo(4);

    release.countDown();
    assertThat(fifth.get(5, TimeUnit.SECONDS)).startsWith("idle-first-test-");
    for (Future<?> t : tasks) {
      t.get(5, TimeUnit.SECONDS);
    }
    assertThat(pool.getLargestPoolSize()).isEqualTo(4);
  }

  @Test
  void aShutDownPoolRefusesTasks() {
    pool.shutdown();
    assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
  }

  private boolean idleThreadWaits() {
    return ((LinkedTransferQueue<Runnable>) pool.getQueue()).hasWaitingConsumer();
  }
}
