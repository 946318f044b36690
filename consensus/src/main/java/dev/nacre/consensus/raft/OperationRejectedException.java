package dev.nacre.consensus.raft;

/** The state machine refused a committed operation; state did not change. */
public class OperationRejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OperationRejectedException(String message) {
    super(message);
  }
}
