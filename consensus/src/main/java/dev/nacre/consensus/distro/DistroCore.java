package dev.nacre.consensus.distro;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The Distro protocol of one member as a pure state machine: each method takes an event and the
 * current time, and returns what to send and what to hand to the {@link DistroHandler}. No
 * threads, no IO, no clock of its own; one thread at a time.
 *
 * <p>The parts: a {@link RecordStore}, one {@link PeerPipeline} per peer, the {@link Verifier}
 * (anti-entropy), the {@link InitialLoad}, the {@link OwnerLossTracker}, a {@link RecordApplier}
 * for what peers send ({@link PullAnswers} for pulls' answers, a slice at a time) and a {@link
 * RevisionCounter} for local writes. This class routes events between them.
 *
 * <p>A member starts owning nothing: records that an earlier run of it wrote are not taken back
 * at the initial load, and verify removes them from peers. So every record a member owns was
 * written by its current run, and its view of its own records is the truth that verify copies.
 */
final class DistroCore {
  private final String selfId;
  private final RecordStore store;
  private final TreeMap<String, PeerPipeline> pipelines = new TreeMap<>();
  private final DistroConfig config;
  private final Verifier verifier;
  private final InitialLoad load;
  private final OwnerLossTracker ownerLoss;
  private final EffectBuffer out = new EffectBuffer();
  private final RevisionCounter revisions;
  private final RecordApplier applier;
  private long nextRequestId = 1;
  private long snapshotsLoaded;
  private long repairs;
  private long pulls;
  private boolean readySeen;
  private final PullAnswers pullAnswers;

  /**
   * A member that keeps every record itself (no application home).
   *
   * @param members ids of all members, this one included; all are taken to be UP
   */
  DistroCore(String selfId, Collection<String> members, DistroConfig config, long nowMillis) {
    this(selfId, members, config, null, new RevisionCounter(nowMillis), nowMillis);
  }

  /**
   * @param members ids of all members, this one included; all are taken to be UP
   * @param home where the application keeps its keys (it writes its own records through
   *     {@link #homeStored}); null when it keeps none
   * @param revisions the counter this member's writes take revisions from, shared with the home
   */
  DistroCore(String selfId, Collection<String> members, DistroConfig config, RecordHome home,
      RevisionCounter revisions, long nowMillis) {
    this.selfId = selfId;
    this.config = config;
    this.store = new RecordStore(config.tombstoneRetention().toMillis(), home);
    this.verifier = new Verifier(config, nowMillis);
    this.load = new InitialLoad(selfId, config);
    this.ownerLoss = new OwnerLossTracker(config);
    this.revisions = revisions;
    this.applier = new RecordApplier(selfId, store, ownerLoss, revisions, out);
    this.pullAnswers = new PullAnswers(applier, verifier, ownerLoss, out);
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

  /** This member writes {@code key}, which the replicator keeps itself (not the home's). */
  List<DistroEffect> localChange(String key, byte[] value, long now) {
    return local(DistroRecord.live(key, selfId, nextRevision(key, now), value), now);
  }

  List<DistroEffect> localDelete(String key, long now) {
    return local(DistroRecord.tombstone(key, selfId, nextRevision(key, now)), now);
  }

  /**
   * The application's home stored this member's write {@code after} of {@code key} in place of
   * {@code before} (null when nothing was held): count it and queue the key for every peer. One
   * write at a time, for tests; the replicator hands over what its queue held (below).
   */
  List<DistroEffect> homeStored(String key, RecordStamp before, RecordStamp after, long now) {
    return homeStored(List.of(new OwnWriteQueue.Stored(key, before, after, now)), now);
  }

  /** As above for several writes, counted and queued in order, each at the time it was made. */
  List<DistroEffect> homeStored(List<OwnWriteQueue.Stored> writes, long now) {
    for (OwnWriteQueue.Stored w : writes) {
      store.homeStored(w.key(), w.before(), w.after(), w.atMillis());
      for (PeerPipeline p : pipelines.values()) {
        p.enqueue(w.key(), w.after(), w.atMillis());
      }
    }
    return finish(now);
  }

  List<DistroEffect> batchAcked(String peer, long sequence, long now) {
    Optional.ofNullable(pipelines.get(peer)).ifPresent(p -> p.acked(sequence, now));
    return finish(now);
  }

  List<DistroEffect> batchFailed(String peer, long sequence, long now) {
    Optional.ofNullable(pipelines.get(peer)).ifPresent(p -> p.failed(sequence, now));
    return finish(now);
  }

  /** A peer's batch: apply its records, then compare its digest with this member's view. */
  List<DistroEffect> batchReceived(DistroBatch batch, long now) {
    String sender = batch.sender();
    verifier.heardFrom(sender, now);
    for (DistroRecord r : batch.records()) {
      if (r.owner().equals(sender)) { // a member only ever sends its own records
        applier.applyIfNewer(r, now);
      }
    }
    batch.digest().ifPresent(d -> {
      if (!d.owner().equals(sender) || ownerLoss.refuses(sender)) {
        return;
      }
      if (!load.isReady()) {
        verifier.noteDigest(d, now); // acted on once loaded: the sender will not repeat it soon
      } else if (verifier.onDigest(d, store.digestOf(sender), now)) {
        pull(sender, now, "its digest differs from this member's view");
      }
    });
    return finish(now);
  }

  /**
   * Answers a peer's snapshot request (a query): its high-water mark and the records only this
   * thread may read are taken now; the supplier lists the rest, on any thread.
   */
  Supplier<DistroSnapshot> beginSnapshot(SnapshotRequest request) {
    long highWater = revisions.highWater(); // first: every record it covers is stored by then
    RecordStore.Listing listing = store.beginListing(request.scope() == SnapshotRequest.Scope.OWNED
        ? s -> s.owner().equals(selfId)
        : s -> true);
    return () -> new DistroSnapshot(selfId, request.scope(), highWater, listing.complete());
  }

  /**
   * Records of a snapshot still on its way. Only a start's load takes them (applied as they come,
   * so the apply overlaps the transfer); a pull needs the whole set to see what is missing.
   */
  List<DistroEffect> snapshotPartReceived(long requestId, List<DistroRecord> records, long now) {
    if (load.isLoadRequest(requestId)) {
      applier.applyInitialLoad(records, now);
      load.progressed(requestId, now);
    }
    return finish(now);
  }

  List<DistroEffect> snapshotReceived(long requestId, DistroSnapshot snapshot, long now) {
    if (load.isLoadRequest(requestId)) {
      applier.applyInitialLoad(snapshot.records(), now);
      snapshotsLoaded++;
      load.loaded(requestId);
      out.add(new DistroEffect.BecameReady(true));
    } else if (verifier.isPull(requestId)) {
      Optional<String> owner = verifier.pullOwner(requestId)
          .filter(o -> o.equals(snapshot.sender()) && !ownerLoss.refuses(o));
      if (owner.isPresent()) {
        pullAnswers.add(owner.get(), requestId, snapshot);
        verifier.heardFrom(owner.get(), now);
        applyNextSlice(now);
      } else {
        verifier.pullAnswered(requestId, now);
      }
    }
    return finish(now);
  }

  /** Applies the next slice of a pull's answer (see {@link DistroEffect.ContinueApply}). */
  List<DistroEffect> continueApply(long now) {
    pullAnswers.continued();
    applyNextSlice(now);
    return finish(now);
  }

  private void applyNextSlice(long now) {
    pullAnswers.applyNextSlice(now).ifPresent(owner -> {
      repairs++;
      pullOwnersOutOfDate(owner, "its digest differed while another owner's records hid some of its", now);
    });
  }

  /** Pulls every UP owner but {@code except} whose last digest differs from this member's view. */
  private void pullOwnersOutOfDate(String except, String why, long now) {
    for (String owner : verifier.ownersOutOfDate(store::digestOf)) {
      PeerPipeline p = pipelines.get(owner);
      if (!owner.equals(except) && p != null && p.isUp() && !ownerLoss.refuses(owner)) {
        pull(owner, now, why);
      }
    }
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
      if (load.isReady()) {
        verifier.watch(member, now);
      }
    }
    return finish(now);
  }

  List<DistroEffect> memberAnsweredAgain(String member, long now) {
    PeerPipeline p = pipelines.get(member);
    if (p != null) {
      p.retryNow();
      p.requestDigest();
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
    verifier.ticked(now);
    ownerLoss.newlyExpired(now).forEach(applier::removeOwner);
    store.expireTombstones(now);
    if (verifier.roundDue(now)) {
      pipelines.values().forEach(PeerPipeline::requestDigest);
    }
    for (String owner : verifier.ownersToPullAgain(now, store::digestOf)) {
      PeerPipeline p = pipelines.get(owner);
      if (p != null && p.isUp()) {
        pull(owner, now, "the last pull failed and its digest still differs");
      }
    }
    if (load.isReady()) {
      for (String owner : verifier.silentOwners(now)) {
        PeerPipeline p = pipelines.get(owner);
        if (p != null && p.isUp() && !ownerLoss.refuses(owner)) {
          pull(owner, now, "nothing came from it for two verify intervals");
        }
      }
    }
    return finish(now);
  }

  /**
   * When a pipeline's batch falls due with no event before it, so that the replicator's thread can
   * wake for it instead of ticking often; while the start's load runs, {@code loadStepMillis} from
   * now (its asks and their retries are timed by ticks).
   * Everything else a tick advances (verify rounds, timeouts, retries of pulls, grace periods,
   * tombstones) waits for the periodic tick.
   */
  long nextWakeAt(long now, long loadStepMillis) {
    if (!load.isReady()) {
      return now + loadStepMillis;
    }
    long at = Long.MAX_VALUE;
    for (PeerPipeline p : pipelines.values()) {
      at = Math.min(at, p.nextSendAt());
    }
    return at;
  }

  /**
   * Until when an own write made now leaves no later if it waits for the replicator's next wake
   * or event ({@link OwnWriteQueue}): the earliest over the peers of {@link
   * PeerPipeline#newKeyMayWaitUntil}; never while the start's load runs.
   */
  long ownWritesMayWaitUntil() {
    if (!load.isReady()) {
      return Long.MIN_VALUE;
    }
    long until = Long.MAX_VALUE;
    for (PeerPipeline p : pipelines.values()) {
      until = Math.min(until, p.newKeyMayWaitUntil());
    }
    return until;
  }

  // ---- introspection, for tests and status pages ----

  /** No peer has keys pending or a batch in flight. */
  boolean quiet() {
    return pipelines.values().stream().allMatch(p -> p.pendingCount() == 0 && !p.hasInFlight());
  }

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

  DistroStatus status() {
    Map<String, Integer> pending = new TreeMap<>();
    Map<String, Long> resyncs = new TreeMap<>();
    Map<String, DistroStatus.PeerTraffic> traffic = new TreeMap<>();
    pipelines.forEach((peer, p) -> {
      pending.put(peer, p.pendingCount());
      resyncs.put(peer, p.resyncCount());
      traffic.put(peer, p.traffic());
    });
    return new DistroStatus(selfId, load.isReady(), store.size(), store.liveCount(),
        store.liveCountOf(selfId), pending, resyncs, verifier.pullsInProgress(), traffic, snapshotsLoaded, repairs, pulls);
  }

  long lastIssuedRevision() {
    return revisions.lastIssued();
  }

  /**
   * How often records were dropped without a newer one in their place (owner lost, or absent
   * from its owner's set): only then can an older record of the same key come back.
   */
  long droppedWithoutReplacement() {
    return applier.droppedWithoutReplacement();
  }

  int pullsInProgress() {
    return verifier.pullsInProgress();
  }

  // ---- internals ----

  private long nextRevision(String key, long now) {
    if (store.homed(key)) {
      throw new IllegalArgumentException("key " + key + " is kept by the application's home,"
          + " which writes it through OwnWrites");
    }
    return revisions.next(store.get(key).map(DistroRecord::revision).orElse(0L), now);
  }

  private List<DistroEffect> local(DistroRecord r, long now) {
    store.storeIf(r, held -> true, now);
    RecordStamp stamp = RecordStamp.of(r);
    for (PeerPipeline p : pipelines.values()) {
      p.enqueue(r.key(), stamp, now);
    }
    return finish(now);
  }

  /** The record held for a queued key now, null when none. */
  private DistroRecord heldRecord(String key) {
    return store.get(key).orElse(null);
  }

  private void pull(String owner, long now, String why) {
    pulls++;
    long id = nextRequestId++;
    verifier.pullStarted(owner, id, now);
    out.add(new DistroEffect.RequestSnapshot(owner, id,
        new SnapshotRequest(selfId, SnapshotRequest.Scope.OWNED), why));
  }

  /** Ends every event: drives the initial load and every pipeline, then returns the effects. */
  private List<DistroEffect> finish(long now) {
    driveLoad(now);
    if (load.isReady() && !readySeen) {
      readySeen = true;
      afterLoad(now);
    }
    for (PeerPipeline p : pipelines.values()) {
      p.poll(now, load.isReady(), this::heldRecord).ifPresent(o -> out.add(new DistroEffect.SendBatch(p.peer(),
          new DistroBatch(selfId, o.sequence(), o.records(),
              o.wantsDigest() ? Optional.of(store.digestOf(selfId)) : Optional.empty()))));
    }
    return out.drain();
  }

  /**
   * Once ready: watch every UP owner for its digests, and repair at once what the digests that
   * arrived during the load showed (their senders send the next only a verify interval later).
   */
  private void afterLoad(long now) {
    for (String peer : upPeers()) {
      verifier.watch(peer, now);
    }
    pullOwnersOutOfDate(null, "digests that came during the load differ from what it loaded", now);
  }

  private void driveLoad(long now) {
    if (load.isReady()) {
      return;
    }
    switch (load.poll(now, upPeers())) {
      case ASK -> {
        long id = nextRequestId++;
        load.asked(id, now);
        out.add(new DistroEffect.RequestSnapshot(load.peerToAsk(), id,
            new SnapshotRequest(selfId, SnapshotRequest.Scope.ALL), "this member is starting"));
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
      PeerPipeline created = new PeerPipeline(selfId, p, config);
      created.requestDigest(); // a new peer may hold anything: verify it on the first batch
      return created;
    });
  }
}
