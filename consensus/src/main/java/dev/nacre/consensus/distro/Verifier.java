package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Anti-entropy bookkeeping: when the next verify round is due, and the repair pulls in progress
 * (at most one per owner). A pull that fails is retried with exponential backoff while the
 * owner's last digest still differs from this member's view.
 *
 * <p>Digests travel from owner to holder only, so a holder learns of a gap only when the owner
 * sends. An owner that sees this member DOWN (its membership lags, e.g. its channel to a restarted
 * member is still backing off) sends nothing; this member, which sees the owner UP, would then
 * miss its records until the owner's view catches up. So each UP owner is watched: when nothing
 * of it arrived within a verify interval (plus a flush delay of slack) of it coming UP or of this
 * member becoming ready, or within two intervals of its last batch or digest, this member pulls
 * the owner's records itself.
 */
final class Verifier {
  /** A tick later than this after the last one means the member's thread was held up. */
  static final long STALL_SLACK_MILLIS = 1_000;

  private record Pull(String owner, long deadline) {}

  private final long intervalMillis;
  private final long timeoutMillis;
  private final long retryDelayMillis;
  private final long retryDelayMaxMillis;
  private final long firstDigestWithinMillis;
  /** UP owners being watched, and when to pull one that stayed silent until then. */
  private final TreeMap<String, Long> silentPullAt = new TreeMap<>();
  private final Map<String, Integer> failuresInARow = new HashMap<>();
  private long nextRoundAt;
  private final Map<Long, Pull> pullsById = new HashMap<>();
  private final Map<String, Long> pullIdByOwner = new HashMap<>();
  private final Map<String, OwnerDigest> lastDigest = new HashMap<>();
  private long lastTickAt;
  private final TreeMap<String, Long> retryAt = new TreeMap<>();

  Verifier(DistroConfig config, long nowMillis) {
    this.intervalMillis = config.verifyInterval().toMillis();
    this.timeoutMillis = config.snapshotTimeout().toMillis();
    this.retryDelayMillis = config.retryBackoffBase().toMillis();
    this.retryDelayMaxMillis = config.retryBackoffMax().toMillis();
    this.nextRoundAt = nowMillis + intervalMillis;
    this.lastTickAt = nowMillis;
    this.firstDigestWithinMillis = intervalMillis + config.flushDelay().toMillis();
  }

  /** True once per interval: every peer should get a digest. */
  boolean roundDue(long nowMillis) {
    if (nowMillis < nextRoundAt) {
      return false;
    }
    nextRoundAt = nowMillis + intervalMillis;
    return true;
  }

  /** Records a digest received from its owner; true when a pull should start now. */
  boolean onDigest(OwnerDigest received, OwnerDigest local, long nowMillis) {
    noteDigest(received, nowMillis);
    if (received.sameContentAs(local)) {
      retryAt.remove(received.owner());
      return false;
    }
    return !pullIdByOwner.containsKey(received.owner());
  }

  /**
   * Records a digest without acting on it (this member is still loading); {@link
   * #ownersOutOfDate} finds the owner once it is ready.
   */
  void noteDigest(OwnerDigest received, long nowMillis) {
    lastDigest.put(received.owner(), received);
    if (silentPullAt.containsKey(received.owner())) {
      silentPullAt.put(received.owner(), nowMillis + 2 * intervalMillis);
    }
  }

  /**
   * A batch of the owner's arrived (or a pull's answer): it sees this member UP, so it is not
   * silent. Its digest may lag far behind its batches: it goes only with a batch that empties the
   * owner's queue, which a long burst of writes keeps from happening (pulling each busy owner
   * whole every two intervals fed a storm of pulls at a million instances).
   */
  void heardFrom(String owner, long nowMillis) {
    if (silentPullAt.containsKey(owner)) {
      silentPullAt.put(owner, nowMillis + 2 * intervalMillis);
    }
  }

  /**
   * Starts watching an UP owner, unless already watched: if none of its digests arrives within
   * an interval (and a flush delay) from now, {@link #silentOwners} returns it.
   */
  void watch(String owner, long nowMillis) {
    silentPullAt.putIfAbsent(owner, nowMillis + firstDigestWithinMillis);
  }

  /**
   * Watched owners whose digest is overdue and that no pull is fetching; each is watched again
   * from now, two intervals, so a silent owner is pulled at most that often.
   */
  List<String> silentOwners(long nowMillis) {
    List<String> out = new ArrayList<>();
    for (var e : silentPullAt.entrySet()) {
      if (nowMillis >= e.getValue() && !pullIdByOwner.containsKey(e.getKey())) {
        out.add(e.getKey());
        e.setValue(nowMillis + 2 * intervalMillis);
      }
    }
    return out;
  }

  void pullStarted(String owner, long requestId, long nowMillis) {
    pullsById.put(requestId, new Pull(owner, nowMillis + timeoutMillis));
    pullIdByOwner.put(owner, requestId);
    retryAt.remove(owner);
  }

  boolean isPull(long requestId) {
    return pullsById.containsKey(requestId);
  }

  /**
   * The pull answered; returns its owner. The answer is word from the owner: a pull that took
   * longer than two intervals to arrive must not make the owner look silent at once.
   */
  Optional<String> pullAnswered(long requestId, long nowMillis) {
    Optional<String> owner = end(requestId);
    owner.ifPresent(o -> {
      failuresInARow.remove(o);
      heardFrom(o, nowMillis);
    });
    return owner;
  }

  /** The owner a pull in progress asks, without ending the pull. */
  Optional<String> pullOwner(long requestId) {
    return Optional.ofNullable(pullsById.get(requestId)).map(Pull::owner);
  }

  /** The pull's answer is still being applied: it is not timed out meanwhile. */
  void pullProgressed(long requestId, long nowMillis) {
    pullsById.computeIfPresent(requestId, (id, p) -> new Pull(p.owner(), nowMillis + timeoutMillis));
  }

  /**
   * The replicator's tick ran. A late tick means this member's thread was busy (applying a large
   * answer, listing a snapshot) and heard nothing meanwhile: its owners' silence over that time is
   * not theirs, so their deadlines move by it.
   */
  void ticked(long nowMillis) {
    long heldUp = nowMillis - lastTickAt - STALL_SLACK_MILLIS;
    lastTickAt = nowMillis;
    if (heldUp > 0) {
      silentPullAt.replaceAll((owner, at) -> at + heldUp);
    }
  }

  /** The pull failed or timed out: retry later, backing off like a batch, if still needed. */
  void pullFailed(long requestId, long nowMillis) {
    end(requestId).ifPresent(owner -> {
      int failures = failuresInARow.merge(owner, 1, Integer::sum);
      long delay = retryDelayMillis;
      for (int i = 1; i < failures && delay < retryDelayMaxMillis; i++) {
        delay *= 2;
      }
      retryAt.put(owner, nowMillis + Math.min(delay, retryDelayMaxMillis));
    });
  }

  private Optional<String> end(long requestId) {
    Pull p = pullsById.remove(requestId);
    if (p == null) {
      return Optional.empty();
    }
    pullIdByOwner.remove(p.owner());
    return Optional.of(p.owner());
  }

  /**
   * Times out pulls and returns the owners whose failed pull should be retried now, given this
   * member's current view of each owner.
   */
  List<String> ownersToPullAgain(long nowMillis, java.util.function.Function<String, OwnerDigest> localView) {
    List<Long> expired = new ArrayList<>();
    pullsById.forEach((id, p) -> {
      if (nowMillis >= p.deadline()) {
        expired.add(id);
      }
    });
    expired.sort(null);
    for (long id : expired) {
      pullFailed(id, nowMillis);
    }
    List<String> again = new ArrayList<>();
    var it = retryAt.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      if (nowMillis < e.getValue()) {
        continue;
      }
      it.remove();
      OwnerDigest last = lastDigest.get(e.getKey());
      if (last != null && !last.sameContentAs(localView.apply(e.getKey()))) {
        again.add(e.getKey());
      }
    }
    return again;
  }

  /**
   * Owners whose last digest differs from this member's view and that no pull is fetching: after
   * records were dropped here, records of other owners that they hid may now be taken.
   */
  List<String> ownersOutOfDate(java.util.function.Function<String, OwnerDigest> localView) {
    List<String> out = new ArrayList<>();
    new TreeMap<>(lastDigest).forEach((owner, digest) -> {
      if (!pullIdByOwner.containsKey(owner) && !digest.sameContentAs(localView.apply(owner))) {
        out.add(owner);
      }
    });
    return out;
  }

  /** Forgets what is known of a member that went DOWN: no pull to it will be retried. */
  void forget(String owner) {
    silentPullAt.remove(owner);
    retryAt.remove(owner);
    lastDigest.remove(owner);
    failuresInARow.remove(owner);
  }

  int pullsInProgress() {
    return pullsById.size();
  }
}
