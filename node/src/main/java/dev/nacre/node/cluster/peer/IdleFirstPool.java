package dev.nacre.node.cluster.peer;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A bounded thread pool that gives a task to an idle thread when one waits, starts a thread only
 * when none does (up to {@code maxThreads}), and queues tasks only when all of them are busy.
 * Threads idle for {@code idleSeconds} end.
 *
 * <p>Why not a plain {@link ThreadPoolExecutor}: below its core size it starts a new thread for
 * every task even while others idle, and with core threads timing out a lightly used pool never
 * reaches its core size. The peer port's pool (256 threads, 30 s) did exactly that: an idle node
 * started a thread for each ping and Distro digest, about 8 a second, and kept 200 of them.
 */
final class IdleFirstPool {
  private IdleFirstPool() {}

  static ThreadPoolExecutor create(String namePrefix, int maxThreads, int idleSeconds) {
    HandToIdleThread queue = new HandToIdleThread();
    return new ThreadPoolExecutor(0, maxThreads, idleSeconds, TimeUnit.SECONDS, queue,
        new ThreadFactoryBuilder().setNameFormat(namePrefix + "%d").setDaemon(true).build(),
        (task, pool) -> {
          if (pool.isShutdown()) {
            throw new RejectedExecutionException("pool " + namePrefix + " is shut down");
          }
          queue.put(task); // every thread is busy: the first to finish takes it
        });
  }

  /**
   * The pool offers a task here first: accepted only by a thread already waiting for one, so that
   * otherwise the pool starts a thread (or, at its maximum, queues the task through the handler).
   */
  private static final class HandToIdleThread extends LinkedTransferQueue<Runnable> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean offer(Runnable task) {
      return tryTransfer(task);
    }
  }
}
