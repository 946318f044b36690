package dev.nacre.consensus.raft;

/** The group could not commit or serve a read in time: no leader, no quorum, or shut down. */
public class ConsensusUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConsensusUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public ConsensusUnavailableException(String message) {
    super(message);
  }
}
