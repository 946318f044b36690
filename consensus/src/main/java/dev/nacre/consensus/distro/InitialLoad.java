package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;

/**
 * The start of a member: it loads a full snapshot from one UP peer before it is ready, trying
 * peers in ring order after its own id (so that starting members spread over the others), and
 * starting a new round after a delay once all have failed. With no UP peer it is ready at once;
 * after {@code initialLoadTimeout} it is ready with what it has, and verify fills in the rest.
 */
final class InitialLoad {
  enum Outcome { WAITING, ASK, READY_LOADED, READY_WITHOUT_PEER }

  private final String selfId;
  private final long timeoutMillis;
  private final long requestTimeoutMillis;
  private final long retryDelayMillis;
  private boolean started;
  private boolean ready;
  private long startedAt;
  private long roundRetryAt;
  private long outstandingId;
  private String outstandingPeer;
  private long outstandingDeadline;
  private final Set<String> triedThisRound = new HashSet<>();
  private String nextAsk;

  InitialLoad(String selfId, DistroConfig config) {
    this.selfId = selfId;
    this.timeoutMillis = config.initialLoadTimeout().toMillis();
    this.requestTimeoutMillis = config.snapshotTimeout().toMillis();
    this.retryDelayMillis = config.retryBackoffMax().toMillis();
  }

  void start(long nowMillis) {
    started = true;
    startedAt = nowMillis;
  }

  boolean isReady() {
    return ready;
  }

  /**
   * Advances the load. On {@link Outcome#ASK} the caller sends a request to {@link #peerToAsk()}
   * and reports its id with {@link #asked}.
   */
  Outcome poll(long nowMillis, SortedSet<String> upPeers) {
    if (!started || ready) {
      return Outcome.WAITING;
    }
    if (outstandingId != 0 && nowMillis >= outstandingDeadline) {
      outstandingId = 0;
    }
    if (outstandingId != 0) {
      return Outcome.WAITING;
    }
    if (upPeers.isEmpty() || nowMillis - startedAt >= timeoutMillis) {
      ready = true;
      return Outcome.READY_WITHOUT_PEER;
    }
    if (nowMillis < roundRetryAt) {
      return Outcome.WAITING;
    }
    Optional<String> next = ringOrder(upPeers).stream()
        .filter(p -> !triedThisRound.contains(p)).findFirst();
    if (next.isEmpty()) {
      triedThisRound.clear();
      roundRetryAt = nowMillis + retryDelayMillis;
      return Outcome.WAITING;
    }
    nextAsk = next.get();
    return Outcome.ASK;
  }

  String peerToAsk() {
    return nextAsk;
  }

  void asked(long requestId, long nowMillis) {
    triedThisRound.add(nextAsk);
    outstandingId = requestId;
    outstandingPeer = nextAsk;
    outstandingDeadline = nowMillis + requestTimeoutMillis;
  }

  boolean isLoadRequest(long requestId) {
    return requestId != 0 && requestId == outstandingId;
  }

  /**
   * A part of the outstanding request's snapshot was applied: the peer answers, so its deadline
   * starts again. Parts wait on this member's thread while earlier ones apply; a large registry
   * takes longer to apply than to stream, and timing the request out meanwhile made a start
   * ready with a part of it.
   */
  void progressed(long requestId, long nowMillis) {
    if (isLoadRequest(requestId)) {
      outstandingDeadline = Math.max(outstandingDeadline, nowMillis + requestTimeoutMillis);
    }
  }

  /** The snapshot arrived; the caller has applied it. */
  void loaded(long requestId) {
    if (isLoadRequest(requestId)) {
      outstandingId = 0;
      ready = true;
    }
  }

  void failed(long requestId) {
    if (isLoadRequest(requestId)) {
      outstandingId = 0;
    }
  }

  /** A peer went DOWN: stop waiting for it. */
  void peerDown(String peer) {
    if (outstandingId != 0 && peer.equals(outstandingPeer)) {
      outstandingId = 0;
    }
  }

  private List<String> ringOrder(SortedSet<String> upPeers) {
    List<String> order = new ArrayList<>(upPeers.tailSet(selfId));
    order.addAll(upPeers.headSet(selfId));
    order.remove(selfId);
    return order;
  }
}
