package dev.nacre.consensus.raft.internal;

import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;

/**
 * Stops a Raft server without waiting for it past a bound. Ratis waits for its gRPC server to
 * terminate without a bound; a stream that never ends once hung a node's stop (seen once in a
 * test that stops three members in one JVM). A stop that takes longer than the bound is logged and
 * left to finish (or to the JVM's exit) on its own thread.
 */
public final class BoundedServerStop {
  private BoundedServerStop() {}

  /** Closes {@code server}, waiting at most {@code boundMs}; logs to {@code log}, the member's logger. */
  public static void close(String selfId, RaftServer server, long boundMs, Logger log) {
    Thread closer = new Thread(() -> closeQuietly(selfId, server, log), "nacre-raft-close-" + selfId);
    closer.setDaemon(true);
    closer.start();
    try {
      closer.join(boundMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (closer.isAlive()) {
      log.warn("[{}] the Raft server did not stop within {} ms; going on without waiting for it", selfId, boundMs);
    }
  }

  private static void closeQuietly(String selfId, RaftServer server, Logger log) {
    try {
      server.close();
    } catch (Exception e) {
      log.warn("[{}] closing the Raft server failed", selfId, e);
    }
  }
}
