package dev.nacre.consensus.distro;

import java.util.ArrayDeque;
import java.util.Optional;

/**
 * Pulls' answers waiting to be applied, the first under way, {@link #SLICE} records per event. At
 * a million instances one answer held hundreds of thousands of records and took the replicator's
 * thread 10-30 s in one go; its batches, digests and ticks waited, so its peers took it for silent
 * and pulled it in turn. A pull stays in progress until its answer is applied, so a digest that
 * differs meanwhile does not start another. One thread (the replicator's).
 */
final class PullAnswers {
  /** Records applied per event: tens of milliseconds of the thread. */
  static final int SLICE = 5_000;

  private final ArrayDeque<RecordApplier.OwnerReplacement> queue = new ArrayDeque<>();
  private final RecordApplier applier;
  private final Verifier verifier;
  private final OwnerLossTracker ownerLoss;
  private final EffectBuffer out;
  private boolean continuationDue;

  PullAnswers(RecordApplier applier, Verifier verifier, OwnerLossTracker ownerLoss, EffectBuffer out) {
    this.applier = applier;
    this.verifier = verifier;
    this.ownerLoss = ownerLoss;
    this.out = out;
  }

  /** Queues the answer of pull {@code requestId} from {@code owner}. */
  void add(String owner, long requestId, DistroSnapshot snapshot) {
    queue.add(applier.startReplacing(owner, requestId, snapshot));
  }

  /** The {@link DistroEffect.ContinueApply} asked for has come. */
  void continued() {
    continuationDue = false;
  }

  /**
   * Applies the next slice, and asks for a continuation while answers remain.
   *
   * @return the owner whose answer this slice completed, if that dropped records of it
   */
  Optional<String> applyNextSlice(long now) {
    RecordApplier.OwnerReplacement r = queue.peek();
    Optional<String> completed = Optional.empty();
    if (r == null) {
      return completed;
    }
    if (ownerLoss.refuses(r.owner())) {
      queue.poll(); // its records are going: nothing of it is taken any more
      verifier.pullAnswered(r.requestId(), now);
    } else {
      applier.applySlice(r, SLICE, now);
      queue.forEach(waiting -> verifier.pullProgressed(waiting.requestId(), now));
      if (r.allApplied()) {
        queue.poll();
        verifier.pullAnswered(r.requestId(), now);
        if (applier.finishReplacing(r)) {
          completed = Optional.of(r.owner());
        }
      }
    }
    if (!queue.isEmpty() && !continuationDue) {
      continuationDue = true;
      out.add(new DistroEffect.ContinueApply());
    }
    return completed;
  }
}
