package dev.nacre.consensus.distro;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Outbound messages to peers (gRPC in production, in-memory in tests). The receiving side hands
 * each message to its own {@link DistroReplicator}: {@link DistroReplicator#receiveBatch} and
 * {@link DistroReplicator#serveSnapshot}.
 *
 * <p>Methods are called from the replicator's thread and must not block: they start the call and
 * return. The futures may complete on any thread. The replicator applies its own timeout
 * ({@link DistroConfig#requestTimeout()}), so a future that never completes costs nothing but
 * memory; an implementation should still cancel the underlying call on its own deadline.
 */
public interface DistroTransport {

  /**
   * Sends a batch to {@code peerId}. Completes normally once the peer has applied it (its
   * {@code receiveBatch} future completed normally), exceptionally when it could not be
   * delivered or the peer failed to apply it. The batch is then retried.
   */
  CompletableFuture<Void> sendBatch(String peerId, DistroBatch batch);

  /**
   * Asks {@code peerId} for a snapshot of its records. Completes with the peer's
   * {@code serveSnapshot} answer, or exceptionally when the peer could not be reached.
   */
  CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest request);

  /**
   * As {@link #requestSnapshot(String, SnapshotRequest)}, but hands the records to {@code parts}
   * as they arrive, in order, and completes with a snapshot that holds the records not handed
   * over (none when the peer streamed them all). A transport that cannot stream hands nothing.
   * If the call fails midway, the parts already handed over stay handed over.
   */
  default CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest request,
      Consumer<List<DistroRecord>> parts) {
    return requestSnapshot(peerId, request);
  }
}
