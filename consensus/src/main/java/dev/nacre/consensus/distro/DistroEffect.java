package dev.nacre.consensus.distro;

import java.util.List;

/** What {@link DistroCore} asks its shell to do after an event. */
sealed interface DistroEffect {

  /** Send {@code batch} to {@code peer}; report the outcome with {@code batchAcked/batchFailed}. */
  record SendBatch(String peer, DistroBatch batch) implements DistroEffect {}

  /**
   * Ask {@code peer} for a snapshot; report with {@code snapshotReceived/snapshotFailed}. {@code
   * why} says, for the log, what made this member ask.
   */
  record RequestSnapshot(String peer, long requestId, SnapshotRequest request, String why)
      implements DistroEffect {
  }

  /** Hand these peer records to {@link DistroHandler#apply}. */
  record ApplyRecords(List<DistroRecord> records) implements DistroEffect {
    public ApplyRecords {
      records = List.copyOf(records);
    }
  }

  /** Hand these dropped records to {@link DistroHandler#remove}. */
  record RemoveRecords(List<DistroRecord> records) implements DistroEffect {
    public RemoveRecords {
      records = List.copyOf(records);
    }
  }

  /**
   * Call {@code continueApply} on this member's thread after the events already waiting there: a
   * pull's answer is applied a slice at a time, so batches and ticks are not held up by it.
   */
  record ContinueApply() implements DistroEffect {}

  /** The initial load ended; {@code loadedFromPeer} is false after a timeout or with no peer. */
  record BecameReady(boolean loadedFromPeer) implements DistroEffect {}
}
