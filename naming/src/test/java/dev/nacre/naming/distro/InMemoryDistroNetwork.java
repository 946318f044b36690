package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.DistroBatch;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.consensus.distro.DistroSnapshot;
import dev.nacre.consensus.distro.DistroTransport;
import dev.nacre.consensus.distro.SnapshotRequest;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

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
        if (!attached.containsKey(fromId)) {
          return unreachable(fromId);
        }
        DistroReplicator peer = attached.get(peerId);
        return peer == null ? unreachable(peerId) : peer.receiveBatch(batch);
      }

      @Override
      public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest request) {
        if (!attached.containsKey(fromId)) {
          return unreachable(fromId);
        }
        DistroReplicator peer = attached.get(peerId);
        return peer == null ? unreachable(peerId) : peer.serveSnapshot(request);
      }
    };
  }

  private static <T> CompletableFuture<T> unreachable(String memberId) {
    return CompletableFuture.failedFuture(new IllegalStateException(memberId + " is unreachable"));
  }
}
