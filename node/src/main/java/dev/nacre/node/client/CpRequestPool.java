package dev.nacre.node.client;

import dev.nacre.proto.nacos.Payload;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where client requests that wait for a CP write run. The client port's handlers run on the gRPC
 * transport threads (no hand-off to another thread and back per request, which was most of an
 * ephemeral registration's time on 2 cores); a request that may wait up to the CP timeout for the
 * Raft group must not hold such a thread, so it comes here: a bounded pool with a bounded queue,
 * whose overflow the client hears as Nacos' over-threshold error.
 */
final class CpRequestPool implements AutoCloseable {
  static final int THREADS = 32;
  static final int QUEUE = 1024;
  private static final String PERSISTENT = "\"ephemeral\":false";
  private static final String EPHEMERAL = "\"ephemeral\":true";

  private final ExecutorService pool;

  CpRequestPool(String nodeName) {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(QUEUE), r -> {
          Thread t = new Thread(r, "client-cp-" + nodeName + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    executor.allowCoreThreadTimeOut(true);
    this.pool = executor;
  }

  /**
   * True when the request may wait for a CP write: persistent registrations, and instance
   * requests that do not plainly say {@code "ephemeral":true} (the official client always says
   * which; a body that is unclear goes here, where waiting is harmless).
   */
  static boolean mayWait(String type, Payload payload) {
    if (type.equals("PersistentInstanceRequest")) {
      return true;
    }
    if (!type.equals("InstanceRequest")) {
      return false;
    }
    String body = payload.getBody().getValue().toString(StandardCharsets.UTF_8);
    return body.contains(PERSISTENT) || !body.contains(EPHEMERAL);
  }

  /** Runs {@code task} here; false when the pool and its queue are full (nothing ran). */
  boolean offer(Runnable task) {
    try {
      pool.execute(task);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
