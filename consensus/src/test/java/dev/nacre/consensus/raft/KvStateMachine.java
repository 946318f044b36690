package dev.nacre.consensus.raft;

import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A key/value map on RocksDB for tests. Operations are {@code P key=value} (put, returns the old
 * value) and {@code C key=value} (create, rejected when the key exists).
 */
final class KvStateMachine implements ReplicatedStateMachine, AutoCloseable {
  static final String FAMILY = "kv";

  private final RocksStore store;
  private final AtomicInteger applies = new AtomicInteger();
  private final AtomicInteger installs = new AtomicInteger();
  /** How often each operation (by its text) was applied on this member since it started. */
  private final Map<String, AtomicInteger> appliesByOperation = new ConcurrentHashMap<>();
  private volatile long term;
  /** Simulates a slow disk on this member, so that it visibly lags behind the leader. */
  private volatile long applyDelayMs;
  private final Gate applyGate = new Gate();
  private final Gate snapshotGate = new Gate();
  /** Tests read while the apply thread may swap the store for a snapshot: reads wait for that. */
  private final ReadWriteLock swap = new ReentrantReadWriteLock();

  KvStateMachine(Path dir) {
    this.store = RocksStore.open(dir, List.of(FAMILY));
  }

  static byte[] put(String key, String value) {
    return ("P " + key + "=" + value).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] create(String key, String value) {
    return ("C " + key + "=" + value).getBytes(StandardCharsets.UTF_8);
  }

  void slowDown(long applyDelayMs) {
    this.applyDelayMs = applyDelayMs;
  }

  /** Until {@link #releaseApplies}, the apply thread waits in the next entry (at most 30 s). */
  void holdApplies() {
    applyGate.close();
  }

  void releaseApplies() {
    applyGate.open();
  }

  /** Until {@link #releaseSnapshots}, a snapshot being written waits before it starts (at most 30 s). */
  void holdSnapshots() {
    snapshotGate.close();
  }

  void releaseSnapshots() {
    snapshotGate.open();
  }

  /** Snapshot writers waiting at the gate right now. */
  int snapshotsHeld() {
    return snapshotGate.waiting();
  }

  /** Where a thread waits, while the gate is closed, until it opens (at most 30 s). */
  private static final class Gate {
    private volatile CountDownLatch closed;
    private final AtomicInteger waiting = new AtomicInteger();

    void close() {
      closed = new CountDownLatch(1);
    }

    void open() {
      CountDownLatch latch = closed;
      closed = null;
      if (latch != null) {
        latch.countDown();
      }
    }

    void pass() {
      CountDownLatch latch = closed;
      if (latch == null) {
        return;
      }
      waiting.incrementAndGet();
      try {
        latch.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        waiting.decrementAndGet();
      }
    }

    int waiting() {
      return waiting.get();
    }
  }

  @Override
  public List<Outcome> apply(long index, List<byte[]> operations) {
    applyGate.pass();
    if (applyDelayMs > 0) {
      try {
        TimeUnit.MILLISECONDS.sleep(applyDelayMs); // fault injection, not synchronisation
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Batch entry = new Batch();
    List<Outcome> outcomes = new ArrayList<>();
    for (byte[] operation : operations) {
      String text = new String(operation, StandardCharsets.UTF_8);
      int eq = text.indexOf('=');
      String key = text.substring(2, eq);
      String value = text.substring(eq + 1);
      Optional<String> old = store.get(FAMILY, bytes(key), entry).map(b -> new String(b, StandardCharsets.UTF_8));
      if (text.charAt(0) == 'C' && old.isPresent()) {
        outcomes.add(Outcome.rejected("key " + key + " already exists"));
        continue;
      }
      entry.put(FAMILY, bytes(key), bytes(value));
      applies.incrementAndGet();
      appliesByOperation.computeIfAbsent(text, t -> new AtomicInteger()).incrementAndGet();
      outcomes.add(Outcome.ok(bytes(old.orElse(""))));
    }
    store.commit(entry, index, term);
    return outcomes;
  }

  Optional<String> get(String key) {
    swap.readLock().lock();
    try {
      return store.get(FAMILY, bytes(key)).map(b -> new String(b, StandardCharsets.UTF_8));
    } finally {
      swap.readLock().unlock();
    }
  }

  int size() {
    swap.readLock().lock();
    try {
      int[] n = {0};
      store.forEach(FAMILY, (k, v) -> n[0]++);
      return n[0];
    } finally {
      swap.readLock().unlock();
    }
  }

  int applies() {
    return applies.get();
  }

  /** Times {@code operation} was applied on this member since this instance was created. */
  int appliesOf(byte[] operation) {
    AtomicInteger n = appliesByOperation.get(new String(operation, StandardCharsets.UTF_8));
    return n == null ? 0 : n.get();
  }

  int installs() {
    return installs.get();
  }

  @Override
  public long lastAppliedIndex() {
    return store.appliedIndex();
  }

  @Override
  public long lastAppliedTerm() {
    return store.appliedTerm();
  }

  @Override
  public void setCurrentTerm(long term) {
    this.term = term;
  }

  @Override
  public void writeSnapshot(Path emptyDir) {
    snapshotGate.pass();
    try {
      Files.delete(emptyDir); // RocksDB creates the checkpoint folder itself
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    store.checkpoint(emptyDir);
  }

  @Override
  public void installSnapshot(Path snapshotDir) {
    swap.writeLock().lock();
    try {
      store.replaceWith(snapshotDir);
    } finally {
      swap.writeLock().unlock();
    }
    installs.incrementAndGet();
  }

  @Override
  public void close() {
    swap.writeLock().lock();
    try {
      store.close();
    } finally {
      swap.writeLock().unlock();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
