package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Operations that other members forwarded to this one as leader: commits each once, however often
 * its sender repeats it. A member sends a forward again when an attempt fails or a new leader is
 * elected ({@link LeaderForwards}); the operation may by then be in flight here, or committed in an entry
 * of the old leader. The first kind joins the operation in flight; for the second, every member
 * remembers the results of the forwarded operations it applied lately, and a new leader appends
 * only once it has applied all entries of earlier terms, and looks for the repeat's result again
 * then ({@link LeaderEntries}). So a "create" repeated after
 * a leader change answers what the first attempt did instead of "already exists".
 */
public final class ForwardedRequests {
  private final Function<TrackedOperation, CompletableFuture<byte[]>> submit;
  private final LongSupplier appliedIndex;
  private final Map<TrackedOperation.Key, byte[]> appliedResults;
  private final Map<TrackedOperation.Key, CompletableFuture<byte[]>> inFlight = new ConcurrentHashMap<>();

  /**
   * @param submit queues an operation for this member's next entry; completes with its tagged
   *     {@link ApplyResult} once applied here
   * @param appliedIndex this member's applied index
   * @param remembered how many applied results to keep: enough for the operations of a few
   *     request timeouts
   */
  public ForwardedRequests(Function<TrackedOperation, CompletableFuture<byte[]>> submit, LongSupplier appliedIndex,
      int remembered) {
    this.submit = submit;
    this.appliedIndex = appliedIndex;
    this.appliedResults = new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<TrackedOperation.Key, byte[]> eldest) {
        return size() > remembered;
      }
    };
  }

  /** Commits a forwarded batch; completes with the encoded reply once every operation is applied here. */
  public CompletableFuture<byte[]> commit(List<TrackedOperation> operations) {
    return results(operations).thenApply(results -> EntryCodec.encodeForwardReply(results, appliedIndex.getAsLong()));
  }

  /** Commits a forwarded batch; completes with its tagged results once every operation is applied here. */
  public CompletableFuture<List<byte[]>> results(List<TrackedOperation> operations) {
    List<CompletableFuture<byte[]>> results = new ArrayList<>(operations.size());
    for (TrackedOperation op : operations) {
      results.add(op.forwarded() ? once(op) : submit.apply(op));
    }
    return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
        .thenApply(v -> results.stream().map(CompletableFuture::join).toList());
  }

  /** Called by the apply thread for every entry: remembers the results of forwarded operations. */
  public void applied(List<TrackedOperation> operations, List<Outcome> outcomes) {
    synchronized (appliedResults) {
      for (int i = 0; i < operations.size(); i++) {
        if (operations.get(i).forwarded()) {
          appliedResults.put(operations.get(i).key(), EntryCodec.tagged(outcomes.get(i)));
        }
      }
    }
  }

  private CompletableFuture<byte[]> once(TrackedOperation op) {
    TrackedOperation.Key key = op.key();
    byte[] done = appliedResult(key);
    if (done != null) {
      return CompletableFuture.completedFuture(done);
    }
    CompletableFuture<byte[]> mine = new CompletableFuture<>();
    CompletableFuture<byte[]> earlier = inFlight.putIfAbsent(key, mine);
    if (earlier != null) {
      return earlier;
    }
    // Applied between the first look and the claim (its result is recorded before it leaves inFlight).
    done = appliedResult(key);
    if (done != null) {
      inFlight.remove(key, mine);
      mine.complete(done);
      return mine;
    }
    submit.apply(op).whenComplete((result, error) -> {
      inFlight.remove(key, mine);
      if (error != null) {
        mine.completeExceptionally(error);
      } else {
        mine.complete(result);
      }
    });
    return mine;
  }

  /** The remembered result of a forwarded operation this member applied; null when none. */
  public byte[] appliedResult(TrackedOperation.Key key) {
    synchronized (appliedResults) {
      return appliedResults.get(key);
    }
  }
}
