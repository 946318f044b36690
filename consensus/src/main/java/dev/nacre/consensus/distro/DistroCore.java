package dev.nacre.consensus.distro;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Distro protocol of one member as a pure state machine: each method takes an event and the
 * current time, and returns what to send and what to hand to the {@link DistroHandler}. No
 * threads, no IO, no clock of its own; one thread at a time.
 *
 * <p>Revisions of local writes are {@code max(last issued + 1, held revision + 1, now * 1000)}:
 * increasing per member, always above any record of the key this member has seen (that is how a
 * key is re-owned), and above what an earlier run of this member issued, so a restarted member's
 * writes are not mistaken for stale ones.
 *
 * <p>A member starts owning nothing: records that an earlier run of it wrote are not taken back
 * at the initial load, and verify removes them from peers. So every record a member owns was
 * written by its current run, and its view of its own records is the truth that verify copies.
 */
final class DistroCore {
  static final long REVISIONS_PER_MILLI = 1000;

  private final String selfId;
  private final RecordStore store;
  private final TreeMap<String, PeerPipeline> pipelines = new TreeMap<>();
  private final DistroConfig config;
  private final Verifier verifier;
  private final InitialLoad load;
  private final OwnerLossTracker ownerLoss;
  private final EffectBuffer out = new EffectBuffer();
  private long lastIssuedRevision;
  private long nextRequestId = 1;
  private long droppedWithoutReplacement;

  /**
   * @param members ids of all members, this one included; all are taken to be UP
   */
  DistroCore(String selfId, Collection<String> members, DistroConfig config, long nowMillis) {
    this.selfId = selfId;
    this.config = config;
    this.store = new RecordStore(config.tombstoneRetention().toMillis());
    this.verifier = new Verifier(config, nowMillis);
    this.load = new InitialLoad(selfId, config);
    this.ownerLoss = new OwnerLossTracker(config);
    this.lastIssuedRevision = nowMillis * REVISIONS_PER_MILLI;
    for (String m : new TreeSet<>(members)) {
      if (!m.equals(selfId)) {
        pipeline(m);
      }
    }
  }

  String selfId() {
    return selfId;
  }

  /** Begins the initial load (or becomes ready at once without UP peers). */
  List<DistroEffect> start(long now) {
    load.start(now);
    return finish(now);
  }

  boolean isReady() {
    return load.isReady();
  }

  List<DistroEffect> localChange(String key, byte[] value, long now) {
    return local(DistroRecord.live(key, selfId, nextRevision(key, now), value), now);
  }

  List<DistroEffect> localDelete(String key, long now) {
    return local(DistroRecord.tombstone(key, selfId, nextRevision(key, now)), now);
  }

  List<DistroEffect> batchAcked(String peer, long sequence, long now) {
    Optional.ofNullable(pipelines.get(peer)).ifPresent(p -> p.acked(sequence));
    return finish(now);
  }

  List<DistroEffect> batchFailed(String peer, long sequence, long now) {
    Optional.ofNullable(pipelines.get(peer)).ifPresent(p -> p.failed(sequence, now));
    return finish(now);
  }

  /** A peer's batch: apply its records, then compare its digest with this member's view. */
  List<DistroEffect> batchReceived(DistroBatch batch, long now) {
    String sender = batch.sender();
    for (DistroRecord r : batch.records()) {
      if (r.owner().equals(sender)) { // a member only ever sends its own records
        applyIfNewer(r, now);
      }
    }
    batch.digest().ifPresent(d -> {
      if (d.owner().equals(sender) && load.isReady() && !ownerLoss.refuses(sender)
          && verifier.onDigest(d, store.digestOf(sender))) {
        pull(sender, now);
      }
    });
    return finish(now);
  }

  /** Answers a peer's snapshot request (a query: the state does not change). */
  DistroSnapshot snapshotFor(SnapshotRequest request) {
    List<DistroRecord> records = request.scope() == SnapshotRequest.Scope.OWNED
        ? store.ownedBy(selfId)
        : store.all();
    return new DistroSnapshot(selfId, request.scope(), lastIssuedRevision, records);
  }

  List<DistroEffect> snapshotReceived(long requestId, DistroSnapshot snapshot, long now) {
    if (load.isLoadRequest(requestId)) {
      for (DistroRecord r : snapshot.records()) {
        if (r.owner().equals(selfId)) {
          // Written by an earlier run of this member: those writes died with it. Not taking them
          // back keeps this member's own view authoritative (verify removes them from peers);
          // its new writes still outrank them.
          lastIssuedRevision = Math.max(lastIssuedRevision, r.revision());
        } else {
          applyIfNewer(r, now);
        }
      }
      load.loaded(requestId);
      out.add(new DistroEffect.BecameReady(true));
    } else if (verifier.isPull(requestId)) {
      Optional<String> owner = verifier.pullAnswered(requestId)
          .filter(o -> o.equals(snapshot.sender()) && !ownerLoss.refuses(o));
      if (owner.isPresent() && replaceOwner(owner.get(), snapshot, now)) {
        for (String other : verifier.ownersOutOfDate(store::digestOf)) {
          if (!other.equals(owner.get()) && pipelines.containsKey(other)
              && pipelines.get(other).isUp()) {
            pull(other, now);
          }
        }
      }
    }
    return finish(now);
  }

  List<DistroEffect> snapshotFailed(long requestId, long now) {
    load.failed(requestId);
    verifier.pullFailed(requestId, now);
    return finish(now);
  }

  List<DistroEffect> memberUp(String member, long now) {
    if (!member.equals(selfId)) {
      pipeline(member).up();
      ownerLoss.up(member);
    }
    return finish(now);
  }

  List<DistroEffect> memberDown(String member, long now) {
    if (!member.equals(selfId)) {
      pipeline(member).down();
      ownerLoss.down(member, now);
      load.peerDown(member);
      verifier.forget(member);
    }
    return finish(now);
  }

  /** Advances timers: flushes, retries, verify rounds, timeouts, grace periods, tombstones. */
  List<DistroEffect> tick(long now) {
    for (String owner : ownerLoss.newlyExpired(now)) {
      droppedWithoutReplacement++;
      store.removeOwner(owner).forEach(out::remove);
    }
    store.expireTombstones(now);
    if (verifier.roundDue(now)) {
      pipelines.values().forEach(PeerPipeline::requestDigest);
    }
    for (String owner : verifier.ownersToPullAgain(now, store::digestOf)) {
      PeerPipeline p = pipelines.get(owner);
      if (p != null && p.isUp()) {
        pull(owner, now);
      }
    }
    return finish(now);
  }

  // ---- introspection, for tests and status pages ----

  Map<String, DistroRecord> liveRecords() {
    return store.live();
  }

  Optional<DistroRecord> record(String key) {
    return store.get(key);
  }

  List<DistroRecord> allRecords() {
    return store.all();
  }

  OwnerDigest digestOf(String owner) {
    return store.digestOf(owner);
  }

  Collection<PeerPipeline> pipelines() {
    return pipelines.values();
  }

  PeerPipeline pipelineTo(String peer) {
    return pipelines.get(peer);
  }

  long lastIssuedRevision() {
    return lastIssuedRevision;
  }

  /**
   * How often records were dropped without a newer one in their place (owner lost, or absent
   * from its owner's set): only then can an older record of the same key come back.
   */
  long droppedWithoutReplacement() {
    return droppedWithoutReplacement;
  }

  int pullsInProgress() {
    return verifier.pullsInProgress();
  }

  // ---- internals ----

  private long nextRevision(String key, long now) {
    long held = store.get(key).map(DistroRecord::revision).orElse(0L);
    long rev = Math.max(Math.max(lastIssuedRevision + 1, held + 1), now * REVISIONS_PER_MILLI);
    lastIssuedRevision = rev;
    return rev;
  }

  private List<DistroEffect> local(DistroRecord r, long now) {
    store.put(r, now);
    for (PeerPipeline p : pipelines.values()) {
      p.enqueue(r, now);
    }
    return finish(now);
  }

  private void applyIfNewer(DistroRecord r, long now) {
    if (ownerLoss.refuses(r.owner())) {
      return;
    }
    Optional<DistroRecord> held = store.get(r.key());
    if (held.isPresent() && !r.isNewerThan(held.get())) {
      return;
    }
    store(r, held, now);
  }

  private void store(DistroRecord r, Optional<DistroRecord> held, long now) {
    store.put(r, now);
    if (r.owner().equals(selfId)) {
      lastIssuedRevision = Math.max(lastIssuedRevision, r.revision());
    }
    if (!r.tombstone() || held.filter(h -> !h.tombstone()).isPresent()) {
      out.apply(r);
    }
  }

  /**
   * Makes this member's view of {@code owner}'s records equal to the owner's snapshot, keeping
   * only what is newer than the snapshot, and records of the same keys that other owners wrote
   * later. Returns true when records were dropped without a replacement.
   */
  private boolean replaceOwner(String owner, DistroSnapshot snapshot, long now) {
    long highWater = snapshot.highWaterRevision();
    Set<String> inSnapshot = new HashSet<>();
    for (DistroRecord r : snapshot.records()) {
      if (!r.owner().equals(owner)) {
        continue;
      }
      inSnapshot.add(r.key());
      Optional<DistroRecord> held = store.get(r.key());
      boolean replace = held.isEmpty()
          || (held.get().owner().equals(owner)
              ? held.get().revision() <= highWater && !held.get().equals(r)
              : r.isNewerThan(held.get()));
      if (replace) {
        store(r, held, now);
      }
    }
    boolean dropped = false;
    for (DistroRecord held : store.ownedBy(owner)) {
      if (!inSnapshot.contains(held.key()) && held.revision() <= highWater) {
        droppedWithoutReplacement++;
        dropped = true;
        store.remove(held.key());
        if (!held.tombstone()) {
          out.remove(held);
        }
      }
    }
    return dropped;
  }

  private void pull(String owner, long now) {
    long id = nextRequestId++;
    verifier.pullStarted(owner, id, now);
    out.add(new DistroEffect.RequestSnapshot(owner, id,
        new SnapshotRequest(selfId, SnapshotRequest.Scope.OWNED)));
  }

  /** Ends every event: drives the initial load and every pipeline, then returns the effects. */
  private List<DistroEffect> finish(long now) {
    driveLoad(now);
    for (PeerPipeline p : pipelines.values()) {
      p.poll(now, load.isReady()).ifPresent(o -> out.add(new DistroEffect.SendBatch(p.peer(),
          new DistroBatch(selfId, o.sequence(), o.records(),
              o.wantsDigest() ? Optional.of(store.digestOf(selfId)) : Optional.empty()))));
    }
    return out.drain();
  }

  private void driveLoad(long now) {
    switch (load.poll(now, upPeers())) {
      case ASK -> {
        long id = nextRequestId++;
        load.asked(id, now);
        out.add(new DistroEffect.RequestSnapshot(load.peerToAsk(), id,
            new SnapshotRequest(selfId, SnapshotRequest.Scope.ALL)));
      }
      case READY_WITHOUT_PEER -> out.add(new DistroEffect.BecameReady(false));
      default -> { }
    }
  }

  private SortedSet<String> upPeers() {
    SortedSet<String> up = new TreeSet<>();
    pipelines.forEach((id, p) -> {
      if (p.isUp()) {
        up.add(id);
      }
    });
    return up;
  }

  private PeerPipeline pipeline(String peer) {
    return pipelines.computeIfAbsent(peer, p -> {
      PeerPipeline created = new PeerPipeline(p, config);
      created.requestDigest(); // a new peer may hold anything: verify it on the first batch
      return created;
    });
  }
}
