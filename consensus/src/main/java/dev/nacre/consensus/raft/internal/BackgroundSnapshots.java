package dev.nacre.consensus.raft.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Raft snapshots on a thread of their own, so that applying entries, and every write that
 * waits to be applied, does not stop while RocksDB flushes and links a checkpoint (53-60 ms at the
 * median, up to 185 ms, with 100,000 persistent instances: jmh {@code SnapshotBenchmark}).
 *
 * <p>Ratis asks for a snapshot on its apply thread once enough entries have passed, and purges
 * its log up to the index it is answered. {@link #request} starts a snapshot named after the entry
 * applied at that moment, unless one is being written, and answers with the newest snapshot that
 * is complete on disk: Ratis asks again after the next entries and learns of the new snapshot once
 * it is there. Entries are applied meanwhile, so the snapshot's data may also hold entries past
 * its name; they are committed, and a replay skips them as after any restart.
 *
 * <p>{@link #request} and {@link #writeNow} come from Ratis' apply thread (never two snapshots at
 * once); {@link #awaitIdle} and {@link #close}, from any thread, let a caller that replaces or
 * closes the state wait for the snapshot being written.
 */
final class BackgroundSnapshots implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BackgroundSnapshots.class);
  /** After a failed snapshot (disk full?), requests wait this long before the next try. */
  private static final long RETRY_AFTER_FAILURE_NANOS = 5_000_000_000L;

  private final String selfId;
  private final CheckpointSnapshotStorage storage;
  private final ExecutorService writer;
  private Future<?> writing = CompletableFuture.completedFuture(null);
  private long noTryBeforeNanos = System.nanoTime();

  BackgroundSnapshots(String selfId, CheckpointSnapshotStorage storage) {
    this.selfId = selfId;
    this.storage = storage;
    this.writer = Executors.newSingleThreadExecutor(
        new ThreadFactoryBuilder().setNameFormat("raft-snapshot-" + selfId).setDaemon(true).build());
  }

  /**
   * Starts writing a snapshot named {@code at} (whose state is at least {@code dataIndex}) with
   * {@code stateWriter} unless one is being written; returns the newest complete snapshot's index.
   */
  synchronized long request(TermIndex at, long dataIndex, Consumer<Path> stateWriter) {
    if (writing.isDone() && System.nanoTime() - noTryBeforeNanos >= 0 && !writer.isShutdown()) {
      writing = writer.submit(() -> writeInBackground(at, dataIndex, stateWriter));
    }
    return storage.latestIndex();
  }

  /** Writes a snapshot now, after the one being written if any: for an operator's request or a stop. */
  long writeNow(TermIndex at, long dataIndex, Consumer<Path> stateWriter) throws IOException {
    awaitIdle();
    return storage.write(at, dataIndex, stateWriter).termIndex().getIndex();
  }

  /** Waits until no snapshot is being written. */
  void awaitIdle() {
    Future<?> current;
    synchronized (this) {
      current = writing;
    }
    boolean interrupted = false;
    while (true) {
      try {
        current.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the state must not be closed under a running checkpoint
      } catch (ExecutionException e) {
        break; // logged where it happened
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void writeInBackground(TermIndex at, long dataIndex, Consumer<Path> stateWriter) {
    long start = System.nanoTime();
    try {
      storage.write(at, dataIndex, stateWriter);
      log.debug("[{}] snapshot {} written in the background in {} ms", selfId, at,
          (System.nanoTime() - start) / 1_000_000);
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        noTryBeforeNanos = System.nanoTime() + RETRY_AFTER_FAILURE_NANOS;
      }
      log.error("[{}] writing Raft snapshot {} failed; the log is not purged until one succeeds (next try"
          + " in {} s). Check the free space and permissions of the Raft folder.", selfId, at,
          RETRY_AFTER_FAILURE_NANOS / 1_000_000_000L, e);
    }
  }

  /** Waits for the snapshot being written, then stops the thread; later requests start none. */
  @Override
  public void close() {
    synchronized (this) {
      writer.shutdown();
    }
    awaitIdle();
  }
}
