package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The outbound queue to one peer: the keys of pending changes, each once, flushed as a batch at
 * {@code maxBatchSize} keys or {@code flushDelay} after the first pending key, one batch in
 * flight, failed batches merged back and retried with exponential backoff.
 *
 * <p>With {@code leadingEdgeFlush}, a change to an idle peer leaves at once: idle means no batch
 * in flight, no retry being waited for, and no batch sent within the last {@code flushDelay}. The
 * last condition keeps the batching: under a steady stream of changes batches still leave at most
 * once per {@code flushDelay} (unless {@code maxBatchSize} keys are pending); the first change of
 * a burst goes alone and the rest merge into the next batch, which leaves when the window of the
 * last one ends (never later than {@code flushDelay} after its first key, as without the flag).
 * In flight counts as busy because only one batch may be in flight (per-peer order): a slow peer
 * gets its changes merged, as before. A failed batch is retried when its backoff ends, as before.
 *
 * <p>The queue holds keys, each with the stamp of the last change of it this member counted, not
 * records: a batch carries the record held when it leaves, if that is still the counted one, so
 * the records wait in their one home rather than in a queue per peer. A record the home holds
 * beyond the counted stamp (a newer own write whose report is still on its way; the report
 * queues the key again) is left for the next batch, and the digest with it, so that a digest
 * always sums exactly the records sent.
 *
 * <p>A peer that is DOWN, or whose queue grows past {@code maxPendingKeysPerPeer}, loses its
 * queue and is marked for resync: the next batch sent to it carries a digest, and the peer, seeing
 * that its view differs, pulls this member's full set of records. Memory per peer is bounded by
 * the cap, whatever the peer does.
 */
final class PeerPipeline {
  /** A batch this pipeline wants sent; the core adds the digest when {@code wantsDigest}. */
  record Outgoing(long sequence, List<DistroRecord> records, boolean wantsDigest) {}

  private record InFlight(long sequence, List<DistroRecord> records, boolean withDigest,
      long deadline, long firstPendingAt) {}

  private final String selfId;
  private final String peer;
  private final int maxBatchSize;
  private final long flushDelayMillis;
  private final boolean leadingEdge;
  private final long backoffBaseMillis;
  private final long backoffMaxMillis;
  private final long timeoutMillis;
  private final int maxPending;

  private final LinkedHashMap<String, RecordStamp> pending = new LinkedHashMap<>();
  private long firstPendingAt;
  /** No batch left within the last flushDelay once this time is reached. */
  private long quietFrom = Long.MIN_VALUE;
  private InFlight inFlight;
  private long nextSequence = 1;
  private int consecutiveFailures;
  private long retryAt;
  private boolean up = true;
  private boolean digestDue;
  private long resyncCount;
  private long batchesAcked;
  private long recordsAcked;
  private long batchesFailed;
  private long lastAckMillis = -1;

  PeerPipeline(String selfId, String peer, DistroConfig config) {
    this.selfId = selfId;
    this.peer = peer;
    this.maxBatchSize = config.maxBatchSize();
    this.flushDelayMillis = config.flushDelay().toMillis();
    this.leadingEdge = config.leadingEdgeFlush();
    this.backoffBaseMillis = config.retryBackoffBase().toMillis();
    this.backoffMaxMillis = config.retryBackoffMax().toMillis();
    this.timeoutMillis = config.requestTimeout().toMillis();
    this.maxPending = config.maxPendingKeysPerPeer();
  }

  String peer() {
    return peer;
  }

  boolean isUp() {
    return up;
  }

  /** Queues a change of this member's record of {@code key}, counted as {@code stamp}. */
  void enqueue(String key, RecordStamp stamp, long nowMillis) {
    if (!up) {
      return; // the peer gets everything through resync when it comes back
    }
    if (pending.isEmpty()) {
      firstPendingAt = nowMillis;
    }
    // Two writers of one key may report out of order; the newer revision is the change to send.
    pending.merge(key, stamp, (queued, reported) -> reported.revision() >= queued.revision() ? reported : queued);
    enforceCap();
  }

  /** Asks for a digest on the next batch (verify round, or resync). */
  void requestDigest() {
    digestDue = true;
  }

  /**
   * Decides whether a batch leaves now; {@code held} gives the record held for a key now (null
   * when none). A key another member wrote since it was queued is not sent: the digest no longer
   * counts it as this member's.
   */
  Optional<Outgoing> poll(long nowMillis, boolean digestAllowed,
      Function<String, DistroRecord> held) {
    if (!up) {
      return Optional.empty();
    }
    if (inFlight != null && nowMillis >= inFlight.deadline()) {
      failed(inFlight.sequence(), nowMillis);
    }
    if (inFlight != null || nowMillis < retryAt) {
      return Optional.empty();
    }
    boolean sendDigest = digestDue && digestAllowed;
    boolean due = pending.size() >= maxBatchSize
        || (!pending.isEmpty() && nowMillis - firstPendingAt >= flushDelayMillis)
        || (!pending.isEmpty() && leadingEdge && nowMillis >= quietFrom)
        || sendDigest;
    if (!due) {
      return Optional.empty();
    }
    long batchFirstPendingAt = firstPendingAt;
    List<DistroRecord> records = new ArrayList<>(Math.min(pending.size(), maxBatchSize));
    boolean aheadOfCount = false;
    Iterator<Map.Entry<String, RecordStamp>> it = pending.entrySet().iterator();
    while (it.hasNext() && records.size() < maxBatchSize) {
      Map.Entry<String, RecordStamp> queued = it.next();
      it.remove();
      DistroRecord r = held.apply(queued.getKey());
      if (r == null || !r.owner().equals(selfId)) {
        continue;
      }
      if (queued.getValue().stamps(r)) {
        records.add(r);
      } else {
        aheadOfCount = true;
      }
    }
    // The digest describes everything sent so far only if this batch drains the queue.
    boolean withDigest = sendDigest && pending.isEmpty() && !aheadOfCount;
    if (withDigest) {
      digestDue = false;
    }
    if (records.isEmpty() && !withDigest) {
      return Optional.empty(); // every queued key went to another member: nothing to say
    }
    long sequence = nextSequence++;
    quietFrom = nowMillis + flushDelayMillis;
    inFlight = new InFlight(sequence, records, withDigest, nowMillis + timeoutMillis,
        batchFirstPendingAt);
    return Optional.of(new Outgoing(sequence, records, withDigest));
  }

  /**
   * When {@link #poll} would next send without another event happening first: the end of the
   * flush window (or of the leading edge's quiet time) of the pending keys, or of a retry's
   * backoff. {@code Long.MAX_VALUE} while only an event can make it send: nothing pending, a batch
   * in flight (its answer is an event; its timeout is left to the replicator's periodic tick), or
   * the peer DOWN.
   */
  long nextSendAt() {
    if (!up || inFlight != null) {
      return Long.MAX_VALUE;
    }
    if (pending.isEmpty()) {
      return digestDue ? retryAt : Long.MAX_VALUE;
    }
    long at = firstPendingAt + flushDelayMillis;
    if (leadingEdge) {
      at = Math.min(at, quietFrom);
    }
    return Math.max(at, retryAt);
  }

  /**
   * Until when a key queued now may wait for the replicator's next wake and still leave as soon:
   * the pending batch's due time (the thread wakes for it); forever while a batch is in flight or
   * the peer is DOWN (an answer, a timeout or a state change is an event, and the key could not
   * leave before it); never while nothing is pending (the key may leave at once).
   */
  long newKeyMayWaitUntil() {
    if (!up || inFlight != null) {
      return Long.MAX_VALUE;
    }
    return pending.isEmpty() ? Long.MIN_VALUE : nextSendAt();
  }

  void acked(long sequence, long nowMillis) {
    if (inFlight == null || inFlight.sequence() != sequence) {
      return; // late answer to a batch already timed out or dropped
    }
    lastAckMillis = nowMillis;
    batchesAcked++;
    recordsAcked += inFlight.records().size();
    inFlight = null;
    consecutiveFailures = 0;
    retryAt = 0;
  }

  void failed(long sequence, long nowMillis) {
    if (inFlight == null || inFlight.sequence() != sequence) {
      return;
    }
    InFlight failed = inFlight;
    inFlight = null;
    batchesFailed++;
    if (pending.isEmpty()) {
      firstPendingAt = failed.firstPendingAt();
    } else {
      firstPendingAt = Math.min(firstPendingAt, failed.firstPendingAt());
    }
    for (DistroRecord r : failed.records()) {
      pending.putIfAbsent(r.key(), RecordStamp.of(r)); // a queued change of the same key is newer
    }
    if (failed.withDigest()) {
      digestDue = true;
    }
    consecutiveFailures++;
    retryAt = nowMillis + backoffMillis(consecutiveFailures);
    quietFrom = Long.MIN_VALUE; // the backoff spaces retries, not the failed batch's window
    enforceCap();
  }

  /** The peer went DOWN: drop its queue and whatever is in flight, resync when it is back. */
  void down() {
    up = false;
    dropQueueForResync();
    inFlight = null;
    consecutiveFailures = 0;
    retryAt = 0;
  }

  void up() {
    up = true;
  }

  /** The peer answers again: what failed while it did not leaves at the next poll. */
  void retryNow() {
    consecutiveFailures = 0;
    retryAt = 0;
  }

  long backoffMillis(int failures) {
    long delay = backoffBaseMillis;
    for (int i = 1; i < failures && delay < backoffMaxMillis; i++) {
      delay *= 2;
    }
    return Math.min(delay, backoffMaxMillis);
  }

  int pendingCount() {
    return pending.size();
  }

  boolean hasInFlight() {
    return inFlight != null;
  }

  boolean isDigestDue() {
    return digestDue;
  }

  long resyncCount() {
    return resyncCount;
  }

  /**
   * Batches the peer acknowledged, the records they carried, batches that failed or timed out,
   * and when the last was acknowledged.
   */
  DistroStatus.PeerTraffic traffic() {
    return new DistroStatus.PeerTraffic(batchesAcked, recordsAcked, batchesFailed, lastAckMillis);
  }

  private void enforceCap() {
    if (pending.size() > maxPending) {
      dropQueueForResync();
    }
  }

  private void dropQueueForResync() {
    if (!pending.isEmpty() || !digestDue) {
      resyncCount++;
    }
    pending.clear();
    digestDue = true;
  }
}
