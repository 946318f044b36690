package dev.nacre.consensus.raft;

import java.util.Objects;

/**
 * What applying one operation came to: a result, or a deterministic refusal that left the state
 * unchanged. Every member reaches the same outcome for the same operation.
 */
public final class Outcome {
  private static final byte[] EMPTY = new byte[0];

  private final byte[] result;
  private final String rejection;

  private Outcome(byte[] result, String rejection) {
    this.result = result;
    this.rejection = rejection;
  }

  public static Outcome ok(byte[] result) {
    return new Outcome(Objects.requireNonNull(result, "result"), null);
  }

  public static Outcome ok() {
    return new Outcome(EMPTY, null);
  }

  /** A refusal; {@code reason} reaches the submitter as {@link OperationRejectedException}'s message. */
  public static Outcome rejected(String reason) {
    return new Outcome(EMPTY, Objects.requireNonNull(reason, "reason"));
  }

  public boolean isRejected() {
    return rejection != null;
  }

  /** The result of an accepted operation (empty for a rejected one). */
  public byte[] result() {
    return result;
  }

  /** The reason of a rejected operation; throws for an accepted one. */
  public String rejection() {
    if (rejection == null) {
      throw new IllegalStateException("the operation was accepted");
    }
    return rejection;
  }
}
