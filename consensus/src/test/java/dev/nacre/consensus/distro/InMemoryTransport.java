package dev.nacre.consensus.distro;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link DistroTransport} between replicators of one JVM: a call goes straight to the peer's
 * inbound method (which only enqueues on the peer's thread). Links can be cut per direction; a
 * call on a cut link, or to a member not running, fails at once.
 */
final class InMemoryTransport {
  private final Map<String, DistroReplicator> running = new ConcurrentHashMap<>();
  private final Set<String> cut = ConcurrentHashMap.newKeySet();

  /** The transport that member {@code from} sends with. */
  DistroTransport from(String from) {
    return new DistroTransport() {
      @Override
      public CompletableFuture<Void> sendBatch(String peerId, DistroBatch batch) {
        return peer(from, peerId).thenCompose(p -> p.receiveBatch(batch))
            .thenCompose(ok -> link(peerId, from).thenApply(x -> ok));
      }

      @Override
      public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest r) {
        return peer(from, peerId).thenCompose(p -> p.serveSnapshot(r))
            .thenCompose(snap -> link(peerId, from).thenApply(x -> snap));
      }
    };
  }

  void register(DistroReplicator r) {
    running.put(r.selfId(), r);
  }

  void unregister(String id) {
    running.remove(id);
  }

  void cut(String from, String to) {
    cut.add(from + ">" + to);
  }

  void isolate(String id, Iterable<String> others) {
    others.forEach(o -> {
      cut(id, o);
      cut(o, id);
    });
  }

  void healAll() {
    cut.clear();
  }

  private CompletableFuture<DistroReplicator> peer(String from, String to) {
    DistroReplicator target = running.get(to);
    if (target == null) {
      return CompletableFuture.failedFuture(new IOException(to + " is not running"));
    }
    return link(from, to).thenApply(x -> target);
  }

  private CompletableFuture<Void> link(String from, String to) {
    return cut.contains(from + ">" + to)
        ? CompletableFuture.failedFuture(new IOException("link " + from + ">" + to + " is cut"))
        : CompletableFuture.completedFuture(null);
  }
}
