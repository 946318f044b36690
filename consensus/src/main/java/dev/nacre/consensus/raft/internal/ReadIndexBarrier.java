package dev.nacre.consensus.raft.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftPeerId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A linearizable read barrier: a read-only request to this member, which Ratis serves after
 * getting the leader's read index and applying up to it. Ratis answers at once when this member
 * knows no leader (mid-election) and the client does not retry that, so this retries until the
 * deadline; reads are safe to repeat.
 */
public final class ReadIndexBarrier {
  private static final Logger log = LoggerFactory.getLogger(ReadIndexBarrier.class);
  private static final long RETRY_MS = 100;

  private final RaftClient client;
  private final RaftPeerId selfId;
  private final BoundedCalls calls;
  private final long attemptTimeoutMs;

  public ReadIndexBarrier(RaftClient client, RaftPeerId selfId, BoundedCalls calls, long attemptTimeoutMs) {
    this.client = client;
    this.selfId = selfId;
    this.calls = calls;
    this.attemptTimeoutMs = attemptTimeoutMs;
  }

  /** Completes when the barrier passed, or with {@code giveUp} of the last failure at the deadline. */
  public CompletableFuture<Void> pass(long timeoutMs, Function<Throwable, RuntimeException> giveUp) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    attempt(done, System.nanoTime() + timeoutMs * 1_000_000, giveUp);
    return done;
  }

  private void attempt(CompletableFuture<Void> done, long deadline, Function<Throwable, RuntimeException> giveUp) {
    long remainingMs = (deadline - System.nanoTime()) / 1_000_000;
    // Unordered, so that one stuck read-index round cannot hold back the replies of later attempts.
    client.async().sendReadOnlyUnordered(Message.EMPTY, selfId)
        .orTimeout(Math.max(1, Math.min(remainingMs, attemptTimeoutMs)), TimeUnit.MILLISECONDS)
        .whenComplete((reply, error) -> {
          if (error == null && reply.isSuccess()) {
            done.complete(null);
            return;
          }
          Throwable cause = error != null ? BoundedCalls.unwrap(error) : reply.getException();
          long leftMs = (deadline - System.nanoTime()) / 1_000_000;
          if (done.isDone() || calls.isClosed() || leftMs <= RETRY_MS
              || !calls.schedule(() -> attempt(done, deadline, giveUp), RETRY_MS)) {
            done.completeExceptionally(giveUp.apply(cause));
            return;
          }
          log.debug("[{}] read index not served yet, retrying: {}", selfId, cause);
        });
  }
}
