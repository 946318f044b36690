package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroBatch;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.distro.DistroSnapshot;
import dev.nacre.consensus.distro.DistroTransport;
import dev.nacre.consensus.distro.SnapshotRequest;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Connects replicators in one JVM: a send calls the peer replicator's {@code receiveBatch} or
 * {@code serveSnapshot} directly. A member that is not attached (never started, or crashed) is
 * unreachable, as over a real network.
 */
final class InMemoryDistroNetwork {
  private final Map<String, DistroReplicator> attached = new ConcurrentHashMap<>();

  void attach(DistroReplicator replicator) {
    attached.put(replicator.selfId(), replicator);
  }

  /** The member no longer answers (crash): sends to it fail. */
  void detach(String memberId) {
    attached.remove(memberId);
  }

  DistroTransport transportOf(String fromId) {
    return new DistroTransport() {
      @Override
      public CompletableFuture<Void> sendBatch(String peerId, DistroBatch batch) {
        return call(fromId, peerId, peer -> peer.receiveBatch(batch));
      }

      @Override
      public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest request) {
        return call(fromId, peerId, peer -> peer.serveSnapshot(request));
      }
    };
  }

  /** {@code call} on the peer, or unreachable when either member is detached. */
  private <T> CompletableFuture<T> call(String fromId, String peerId,
      Function<DistroReplicator, CompletableFuture<T>> call) {
    if (!attached.containsKey(fromId)) {
      return unreachable(fromId);
    }
    DistroReplicator peer = attached.get(peerId);
    return peer == null ? unreachable(peerId) : call.apply(peer);
  }

  private static <T> CompletableFuture<T> unreachable(String memberId) {
    return CompletableFuture.failedFuture(new IllegalStateException(memberId + " is unreachable"));
  }
}
