package dev.nacre.consensus.distro;

import java.util.Map;

/**
 * One member's replication state at a moment, for status pages and metrics.
 *
 * @param selfId this member's id
 * @param ready whether the initial load has finished
 * @param records records held, tombstones included
 * @param liveRecords records held that are not tombstones
 * @param ownedRecords live records whose owner is this member
 * @param pendingKeysByPeer keys waiting to be sent, per peer
 * @param resyncsByPeer how often a peer's queue was dropped (peer DOWN or queue over the cap)
 * @param pullsInProgress verify repairs waiting for an owner's records
 * @param trafficByPeer batches sent to each peer, by outcome, and the records acknowledged
 * @param snapshotsLoaded initial loads applied (a full snapshot from a peer at start)
 * @param repairs verify repairs applied (an owner's set of records replaced after a digest
 *     mismatch)
 * @param pulls owners' record sets asked for since start (digest differed, or owner silent)
 */
public record DistroStatus(
    String selfId,
    boolean ready,
    int records,
    int liveRecords,
    int ownedRecords,
    Map<String, Integer> pendingKeysByPeer,
    Map<String, Long> resyncsByPeer,
    int pullsInProgress,
    Map<String, PeerTraffic> trafficByPeer,
    long snapshotsLoaded,
    long repairs,
    long pulls) {
  public DistroStatus {
    pendingKeysByPeer = Map.copyOf(pendingKeysByPeer);
    resyncsByPeer = Map.copyOf(resyncsByPeer);
    trafficByPeer = Map.copyOf(trafficByPeer);
  }

  /**
   * Counts since start of the batches sent to one peer, and when it last acknowledged one.
   *
   * @param lastAckMillis clock millis of the peer's last acknowledgement; -1 before the first
   */
  public record PeerTraffic(long batchesAcked, long recordsAcked, long batchesFailed, long lastAckMillis) {
    public static final PeerTraffic NONE = new PeerTraffic(0, 0, 0, -1);
  }
}
