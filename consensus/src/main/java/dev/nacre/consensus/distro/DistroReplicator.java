package dev.nacre.consensus.distro;

import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replicates this member's keyed records to its peers with the Distro protocol, and applies what
 * peers send through a {@link DistroHandler}: batched asynchronous sync, periodic verify
 * (anti-entropy), full snapshot load at start, removal of a dead owner's records after a grace
 * period.
 *
 * <p>Thread-safe. All protocol work happens on one thread owned by this object; the public
 * methods only hand events to it, so {@link #publish} and {@link #delete} cost an enqueue and
 * never wait on a peer. Closing stops the thread; calls after that throw
 * {@link IllegalStateException}.
 */
public final class DistroReplicator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DistroReplicator.class);
  /** How often timers advance at most while the start's load runs (its asks and retries are timed by ticks). */
  private static final long LOAD_STEP_MILLIS = 10;

  private final String selfId;
  private final DistroConfig config;
  private final DistroTransport transport;
  private final DistroHandler handler;
  private final LongSupplier clock;
  private final DistroCore core;
  private final OwnWrites ownWrites;
  private final PeerCalls peerCalls;
  /** Own writes stored by the home, counted on the thread at its next wake or event. */
  private final OwnWriteQueue ownWriteQueue;
  private final RecordHome home;
  private final ScheduledExecutorService executor;
  private final long loadStepMillis;
  /** Lists and encodes the home's part of a peer's snapshot, off the replicator's thread. */
  private final ExecutorService snapshotLister;
  private final Set<String> upMembers = new ConcurrentSkipListSet<>();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private final java.util.concurrent.atomic.AtomicBoolean started =
      new java.util.concurrent.atomic.AtomicBoolean();
  /** When the thread is next woken for a batch (Long.MAX_VALUE: not set); the thread's own. */
  private long wakeAt = Long.MAX_VALUE;
  /** Set by the start's event, so that no wake ticks the core before it started; the thread's own. */
  private boolean coreStarted;
  private volatile OwnershipMapper mapper;
  private volatile boolean loadedFromPeer;

  /**
   * @param selfId this member's id
   * @param memberIds every member of the cluster, this one included; all are taken to be UP until
   *     {@link #memberDown} says otherwise
   */
  public DistroReplicator(String selfId, Collection<String> memberIds, DistroConfig config,
      DistroTransport transport, DistroHandler handler) {
    this(selfId, memberIds, config, transport, handler, monotonicMillis(Clock.systemUTC()));
  }

  /** As above, with the clock (milliseconds) the protocol reads; it must never go back. */
  public DistroReplicator(String selfId, Collection<String> memberIds, DistroConfig config,
      DistroTransport transport, DistroHandler handler, LongSupplier clockMillis) {
    this(selfId, memberIds, config, transport, handler, null, clockMillis);
  }

  /**
   * As above, with the application's {@code home} for the keys it keeps itself (null for none):
   * it writes them through {@link #ownWrites()}, and peers' records of them are stored there.
   */
  public DistroReplicator(String selfId, Collection<String> memberIds, DistroConfig config,
      DistroTransport transport, DistroHandler handler, RecordHome home, LongSupplier clockMillis) {
    this.selfId = Objects.requireNonNull(selfId, "selfId");
    this.config = Objects.requireNonNull(config, "config");
    this.transport = Objects.requireNonNull(transport, "transport");
    this.handler = Objects.requireNonNull(handler, "handler");
    this.clock = Objects.requireNonNull(clockMillis, "clockMillis");
    long now = clock.getAsLong();
    RevisionCounter revisions = new RevisionCounter(now);
    this.core = new DistroCore(selfId, memberIds, config, home, revisions, now);
    this.ownWriteQueue = new OwnWriteQueue(config.maxBatchSize());
    this.peerCalls = new PeerCalls(selfId, transport, core, clock, this::submitQuietly);
    this.ownWrites = new OwnWrites(selfId, revisions, clock, (key, before, after) -> {
      if (ownWriteQueue.add(new OwnWriteQueue.Stored(key, before, after, clock.getAsLong()))) {
        wakeForOwnWrites();
      }
    });
    this.home = home;
    upMembers.addAll(memberIds);
    upMembers.add(selfId);
    mapper = new OwnershipMapper(upMembers);
    loadStepMillis = Math.min(LOAD_STEP_MILLIS, config.tickInterval().toMillis());
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "distro-" + selfId);
      t.setDaemon(true);
      return t;
    });
    snapshotLister = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "distro-snapshots-" + selfId);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts the initial load and the timers. Call once, after {@link #memberDown} for the members
   * already known to be DOWN (a member with no UP peer is ready at once).
   *
   * @throws IllegalStateException when called twice
   */
  public void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("distro replicator of " + selfId + " already started");
    }
    log.info("[{}] distro starting with members {}, {}", selfId, upMembers, config);
    submit(() -> {
      coreStarted = true;
      return core.start(clock.getAsLong());
    });
    long tick = config.tickInterval().toMillis();
    executor.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
  }

  /**
   * After an event: wakes the thread when a batch falls due before the next periodic tick, so the
   * flush window is kept to the millisecond while an idle member's thread wakes only once a tick
   * interval (a 10 ms tick woke each node's thread 100 times a second for nothing).
   */
  private void wakeForNextBatch() {
    long now = clock.getAsLong();
    long at = Math.max(core.nextWakeAt(now, loadStepMillis), now + 1);
    if (at == Long.MAX_VALUE || at >= wakeAt) {
      return; // nothing due, or a wake no later than this one is already set
    }
    wakeAt = at;
    try {
      executor.schedule(() -> {
        wakeAt = Long.MAX_VALUE;
        tick();
      }, at - now, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // closed meanwhile: nothing left to time
    }
  }

  private void tick() {
    handle(() -> core.tick(clock.getAsLong()));
  }

  /** Completes once the initial load has finished (or timed out). */
  public CompletableFuture<Void> whenReady() {
    return ready.copy();
  }

  public boolean isReady() {
    return ready.isDone();
  }

  /** True once ready with a snapshot loaded from a peer; false while loading or when none answered. */
  public boolean loadedFromPeer() {
    return loadedFromPeer;
  }

  public String selfId() {
    return selfId;
  }

  /** How the application's home writes this member's records of the keys it keeps. */
  public OwnWrites ownWrites() {
    return ownWrites;
  }

  /**
   * Records a local write of {@code key}, owned by this member, and queues it for every peer. Not
   * for keys the application's home keeps (those go through {@link #ownWrites()}).
   */
  public void publish(String key, byte[] value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    refuseHomed(key);
    submit(() -> core.localChange(key, value, clock.getAsLong()));
  }

  /** Records a local deletion of {@code key} and queues it for every peer. */
  public void delete(String key) {
    Objects.requireNonNull(key, "key");
    refuseHomed(key);
    submit(() -> core.localDelete(key, clock.getAsLong()));
  }

  /** Membership says {@code memberId} is UP (again, or for the first time). */
  public void memberUp(String memberId) {
    if (upMembers.add(memberId)) {
      mapper = new OwnershipMapper(upMembers);
      log.info("[{}] distro: member {} is UP", selfId, memberId);
    }
    submit(() -> core.memberUp(memberId, clock.getAsLong()));
  }

  /**
   * {@code memberId} answered a ping after it had not (it restarted, or its link came back),
   * whether or not membership had got as far as DOWN: what failed to reach it meanwhile goes now,
   * not after a backoff that may have grown to its maximum, and with a digest, so that a member
   * that restarted and loaded another's snapshot repairs at once what that lacked of this one's.
   */
  public void memberAnsweredAgain(String memberId) {
    submitQuietly(() -> core.memberAnsweredAgain(memberId, clock.getAsLong())); // a hint: none after close
  }

  /** Membership says {@code memberId} is DOWN: stop sending to it, start its grace period. */
  public void memberDown(String memberId) {
    if (!memberId.equals(selfId) && upMembers.remove(memberId)) {
      mapper = new OwnershipMapper(upMembers);
      log.info("[{}] distro: member {} is DOWN; its records go in {}", selfId, memberId,
          config.ownerGracePeriod());
    }
    submit(() -> core.memberDown(memberId, clock.getAsLong()));
  }

  /** Who is responsible for a key among the members currently UP (this one included). */
  public OwnershipMapper ownershipMapper() {
    return mapper;
  }

  /**
   * Inbound: a peer's batch. Completes once applied (the sender's acknowledgement); completes
   * exceptionally only when this replicator is closed.
   */
  public CompletableFuture<Void> receiveBatch(DistroBatch batch) {
    Objects.requireNonNull(batch, "batch");
    return call(() -> {
      run(core.batchReceived(batch, clock.getAsLong()));
      return null;
    });
  }

  /** Inbound: a peer asks for a snapshot of this member's records. */
  public CompletableFuture<DistroSnapshot> serveSnapshot(SnapshotRequest request) {
    Objects.requireNonNull(request, "request");
    return call(() -> core.beginSnapshot(request)).thenApplyAsync(Supplier::get, snapshotLister);
  }

  /** Live records held here, by key (a copy taken on the replicator's thread). */
  public CompletableFuture<java.util.Map<String, DistroRecord>> liveRecords() {
    return call(core::liveRecords);
  }

  /** Replication state, taken on the replicator's thread. */
  public CompletableFuture<DistroStatus> status() {
    return call(core::status);
  }

  @Override
  public void close() {
    executor.shutdownNow();
    ownWriteQueue.close();
    snapshotLister.shutdownNow();
    ready.completeExceptionally(new IllegalStateException("distro replicator closed"));
  }

  private void refuseHomed(String key) {
    if (home != null && home.homes(key)) {
      throw new IllegalArgumentException("key " + key + " is kept by the application's home;"
          + " write it there (through ownWrites())");
    }
  }

  // ---- the replicator's thread ----

  private void submit(Supplier<List<DistroEffect>> event) {
    try {
      executor.execute(() -> handle(event));
    } catch (RejectedExecutionException e) {
      throw new IllegalStateException("distro replicator of " + selfId + " is closed", e);
    }
  }

  private <T> CompletableFuture<T> call(Supplier<T> work) {
    CompletableFuture<T> result = new CompletableFuture<>();
    try {
      executor.execute(() -> {
        try {
          drainOwnWrites(); // what the caller reads or changes comes after the writes reported before
          result.complete(work.get());
        } catch (RuntimeException e) {
          log.error("[{}] distro: inbound call failed", selfId, e);
          result.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(
          new IllegalStateException("distro replicator of " + selfId + " is closed", e));
    }
    return result;
  }

  private void handle(Supplier<List<DistroEffect>> event) {
    try {
      drainOwnWrites(); // events see the own writes reported before them, as when each was an event
      run(event.get());
    } catch (RuntimeException e) {
      log.error("[{}] distro: event failed", selfId, e);
    }
  }

  private void run(List<DistroEffect> effects) {
    settle(effects);
    drainOwnWrites();
  }

  /** Runs an event's effects, sets the next wake, then says which own writes may wait for it. */
  private void settle(List<DistroEffect> effects) {
    runEffects(effects);
    if (coreStarted) {
      wakeForNextBatch();
    }
    ownWriteQueue.mayWaitUntil(coreStarted ? core.ownWritesMayWaitUntil() : Long.MIN_VALUE);
  }

  /**
   * Counts the own writes reported so far. Reports made meanwhile (before the publish that
   * settle made, so they may not have asked for a wake) get a wake queued behind the events
   * already waiting, so that a stream of writes never holds those up.
   */
  private void drainOwnWrites() {
    List<OwnWriteQueue.Stored> writes = ownWriteQueue.drain();
    if (!writes.isEmpty()) {
      settle(core.homeStored(writes, clock.getAsLong()));
    }
    if (ownWriteQueue.claimWakeForWaiting()) {
      wakeForOwnWrites();
    }
  }

  private void wakeForOwnWrites() {
    try {
      executor.execute(() -> {
        ownWriteQueue.wakeStarted();
        handle(List::of);
      });
    } catch (RejectedExecutionException closed) {
      // closed: nothing is replicated any more
    }
  }

  /** Whether no peer has keys pending or a batch in flight, taken on the replicator's thread (tests). */
  CompletableFuture<Boolean> quiet() {
    return call(core::quiet);
  }

  /** How many own writes woke the replicator's thread (most wait for a wake it has set). */
  long ownWriteWakes() {
    return ownWriteQueue.wakesAsked();
  }

  private void runEffects(List<DistroEffect> effects) {
    for (DistroEffect e : effects) {
      if (e instanceof DistroEffect.SendBatch s) {
        peerCalls.send(s);
      } else if (e instanceof DistroEffect.RequestSnapshot r) {
        peerCalls.request(r);
      } else if (e instanceof DistroEffect.ApplyRecords a) {
        callHandler(() -> handler.apply(a.records()));
      } else if (e instanceof DistroEffect.RemoveRecords r) {
        log.debug("[{}] distro: removing {} records", selfId, r.records().size());
        callHandler(() -> handler.remove(r.records()));
      } else if (e instanceof DistroEffect.ContinueApply) {
        submitQuietly(() -> core.continueApply(clock.getAsLong()));
      } else if (e instanceof DistroEffect.BecameReady b) {
        log.info("[{}] distro ready ({})", selfId,
            b.loadedFromPeer() ? "loaded a snapshot from a peer" : "no peer answered; verify will fill in");
        callHandler(handler::ready);
        loadedFromPeer = b.loadedFromPeer();
        ready.complete(null);
      }
    }
  }

  private void submitQuietly(Supplier<List<DistroEffect>> event) {
    try {
      executor.execute(() -> handle(event));
    } catch (RejectedExecutionException closed) {
      // a late answer after close: nothing left to do
    }
  }

  private void callHandler(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      log.error("[{}] distro: handler failed; its view may differ until the keys change again",
          selfId, e);
    }
  }

  /**
   * A clock for the protocol from a node's wall clock: its milliseconds now, then advanced by the
   * monotonic nano clock, so that the protocol's clock never goes back when the wall clock does.
   */
  public static LongSupplier monotonicMillis(Clock wall) {
    long wallAtStart = wall.millis();
    long nanoAtStart = System.nanoTime();
    return () -> wallAtStart + (System.nanoTime() - nanoAtStart) / 1_000_000;
  }
}
