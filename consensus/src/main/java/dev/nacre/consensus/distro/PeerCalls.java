package dev.nacre.consensus.distro;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls to peers that the replicator's effects start (a batch, a snapshot request), whose
 * answers come back to the replicator's thread as events.
 */
final class PeerCalls {
  // Logs under the replicator's name, where operators filter Distro's lines.
  private static final Logger log = LoggerFactory.getLogger(DistroReplicator.class);

  private final String selfId;
  private final DistroTransport transport;
  private final DistroCore core;
  private final LongSupplier clock;
  private final Consumer<Supplier<List<DistroEffect>>> events;

  /** @param events hands an event to the replicator's thread (dropped once it is closed) */
  PeerCalls(String selfId, DistroTransport transport, DistroCore core, LongSupplier clock,
      Consumer<Supplier<List<DistroEffect>>> events) {
    this.selfId = selfId;
    this.transport = transport;
    this.core = core;
    this.clock = clock;
    this.events = events;
  }

  /** Sends a batch; its answer or failure comes back as an event. */
  void send(DistroEffect.SendBatch s) {
    long seq = s.batch().sequence();
    log.debug("[{}] distro: batch {} to {} ({} records)", selfId, seq, s.peer(),
        s.batch().records().size());
    startCall(() -> transport.sendBatch(s.peer(), s.batch())).whenComplete((ok, err) -> {
      if (err == null) {
        events.accept(() -> core.batchAcked(s.peer(), seq, clock.getAsLong()));
      } else {
        log.debug("[{}] distro: batch {} to {} failed: {}", selfId, seq, s.peer(), err.toString());
        events.accept(() -> core.batchFailed(s.peer(), seq, clock.getAsLong()));
      }
    });
  }

  /** Asks a peer for a snapshot; its parts, answer or failure come back as events. */
  void request(DistroEffect.RequestSnapshot r) {
    log.debug("[{}] distro: asking {} for {} records ({})", selfId, r.peer(), r.request().scope(), r.why());
    long asked = System.nanoTime();
    AtomicInteger streamed = new AtomicInteger();
    // A start's load applies the records part by part as they come; a pull needs them whole.
    Consumer<List<DistroRecord>> parts = r.request().scope() != SnapshotRequest.Scope.ALL ? null : records -> {
      streamed.addAndGet(records.size());
      events.accept(() -> core.snapshotPartReceived(r.requestId(), records, clock.getAsLong()));
    };
    startCall(() -> parts == null ? transport.requestSnapshot(r.peer(), r.request())
        : transport.requestSnapshot(r.peer(), r.request(), parts)).whenComplete((snap, err) -> {
      if (err == null) {
        long arrived = System.nanoTime();
        events.accept(() -> {
          List<DistroEffect> effects = core.snapshotReceived(r.requestId(), snap, clock.getAsLong());
          // Where a start's time goes: the peer's listing and the transfer, then what is left to apply.
          // A pull's answer goes on being applied a slice at a time (PullAnswers) after this.
          String applied = r.request().scope() == SnapshotRequest.Scope.ALL
              ? "all applied " + (System.nanoTime() - arrived) / 1_000_000 + " ms after that"
              : "applied " + PullAnswers.SLICE + " records at a time from then on";
          log.info("[{}] distro: {} snapshot of {} records from {} (asked: {}): all arrived {} ms after asking, {}",
              selfId, r.request().scope(), streamed.get() + snap.records().size(), r.peer(), r.why(),
              (arrived - asked) / 1_000_000, applied);
          return effects;
        });
      } else {
        log.info("[{}] distro: {} snapshot from {} failed: {}", selfId, r.request().scope(),
            r.peer(), err.toString());
        events.accept(() -> core.snapshotFailed(r.requestId(), clock.getAsLong()));
      }
    });
  }

  private static <T> CompletableFuture<T> startCall(Supplier<CompletableFuture<T>> call) {
    try {
      return Objects.requireNonNull(call.get(), "transport returned null");
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
