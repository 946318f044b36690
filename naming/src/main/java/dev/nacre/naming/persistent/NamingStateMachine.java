package dev.nacre.naming.persistent;

import static dev.nacre.naming.persistent.RecordKeys.AUTH;
import static dev.nacre.naming.persistent.RecordKeys.CLUSTERS;
import static dev.nacre.naming.persistent.RecordKeys.INSTANCES;
import static dev.nacre.naming.persistent.RecordKeys.NAMESPACES;
import static dev.nacre.naming.persistent.RecordKeys.OVERRIDES;
import static dev.nacre.naming.persistent.RecordKeys.SERVICES;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import dev.nacre.consensus.raft.ReplicatedStateMachine;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.registry.PersistentState;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.proto.naming.AuthRecord;
import dev.nacre.proto.naming.ClusterRecord;
import dev.nacre.proto.naming.InstanceOverrideRecord;
import dev.nacre.proto.naming.InstanceRecord;
import dev.nacre.proto.naming.NamespaceRecord;
import dev.nacre.proto.naming.NamingOperation;
import dev.nacre.proto.naming.ServiceRecord;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import dev.nacre.storage.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.ratis.thirdparty.com.google.protobuf.Parser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CP half of the registry: applies committed {@link NamingOperation}s to RocksDB (one column
 * family per record kind, see {@link RecordKeys}) and to the {@link RegistryIndex}. The data and
 * the applied index are written in one atomic RocksDB batch, so after a crash an entry is either
 * fully applied and skipped on replay, or not applied at all.
 *
 * <p>A snapshot is a RocksDB checkpoint in the subfolder {@code db} of the snapshot folder.
 * Persistent-instance health is soft state: the index starts from the registration's flag and
 * probes change it; it never enters the log or RocksDB.
 *
 * <p>{@link #apply} and {@link #installSnapshot} come from one thread at a time; {@link
 * #writeSnapshot} (a RocksDB checkpoint) may run alongside apply; the index may be read concurrently.
 */
public final class NamingStateMachine implements ReplicatedStateMachine, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NamingStateMachine.class);
  static final List<String> FAMILIES = List.of(NAMESPACES, SERVICES, CLUSTERS, INSTANCES, OVERRIDES, AUTH);
  private static final String SNAPSHOT_DB = "db";

  private final RocksStore store;
  private final RegistryIndex index;
  private final OperationApplier applier;
  private final AuthRecords authRecords = new AuthRecords();
  private volatile long currentTerm;
  private volatile long lastAppliedIndex;
  private volatile long lastAppliedTerm;

  private NamingStateMachine(RocksStore store, RegistryIndex index) {
    this.store = store;
    this.index = index;
    this.applier = new OperationApplier(store, index, authRecords);
  }

  /**
   * Opens (or creates) the naming database in {@code dir} and loads every persistent record into
   * {@code index}, so a restarted node serves what it had before replaying the log.
   */
  public static NamingStateMachine open(Path dir, RegistryIndex index) {
    NamingStateMachine sm = openUnread(dir, index);
    sm.load();
    return sm;
  }

  /**
   * Opens (or creates) the naming database in {@code dir} without reading it: {@link #load} must
   * run before anything is applied or read, on whichever thread should pay for it.
   */
  public static NamingStateMachine openUnread(Path dir, RegistryIndex index) {
    return new NamingStateMachine(RocksStore.open(dir, FAMILIES), index);
  }

  public RegistryIndex index() {
    return index;
  }

  /** The applied client-authentication records (users, roles, permissions). */
  public AuthRecords authRecords() {
    return authRecords;
  }

  /**
   * Applies the operations of one entry in order: each one's index update is visible to the next
   * (so two creates of one namespace in an entry conflict as they would in two entries), and all of
   * their RocksDB mutations commit with the entry's index in one atomic write.
   */
  @Override
  public List<Outcome> apply(long logIndex, List<byte[]> operations) {
    if (logIndex <= lastAppliedIndex) {
      return Collections.nCopies(operations.size(), Outcome.ok());
    }
    Batch entry = new Batch();
    List<Outcome> outcomes = new ArrayList<>(operations.size());
    for (byte[] operation : operations) {
      outcomes.add(applyOne(logIndex, operation, entry));
    }
    // Also when every operation was refused: the entry is consumed, so a replay does not see it as pending.
    commit(entry, logIndex);
    return outcomes;
  }

  private Outcome applyOne(long logIndex, byte[] operation, Batch entry) {
    OperationApplier.Effect effect;
    try {
      effect = applier.effectOf(NamingOperation.parseFrom(operation), logIndex, entry);
    } catch (InvalidProtocolBufferException e) {
      log.debug("Refused an operation of log entry {}: not a naming operation", logIndex);
      return Outcome.rejected("entry " + logIndex + " is not a naming operation: " + e.getMessage());
    } catch (OperationRejectedException e) {
      log.debug("Refused an operation of log entry {}: {}", logIndex, e.getMessage());
      return Outcome.rejected(e.getMessage());
    }
    entry.addAll(effect.batch());
    // Before the entry's RocksDB write: the index is memory, rebuilt from RocksDB at start, and
    // a failed write stops this member (see StateMachineAdapter).
    effect.applyToIndex();
    return Outcome.ok();
  }

  private void commit(Batch batch, long logIndex) {
    long term = currentTerm;
    store.commit(batch, logIndex, term);
    lastAppliedTerm = term;
    lastAppliedIndex = logIndex;
  }

  /** The sizes of the RocksDB database that holds the persistent state. */
  public RocksStore.Stats storageStats() {
    return store.stats();
  }

  @Override
  public long lastAppliedIndex() {
    return lastAppliedIndex;
  }

  @Override
  public long lastAppliedTerm() {
    return lastAppliedTerm;
  }

  @Override
  public void setCurrentTerm(long term) {
    this.currentTerm = term;
  }

  @Override
  public void writeSnapshot(Path emptyDir) {
    store.checkpoint(emptyDir.resolve(SNAPSHOT_DB));
  }

  @Override
  public void installSnapshot(Path snapshotDir) {
    store.replaceWith(snapshotDir.resolve(SNAPSHOT_DB));
    load();
  }

  /**
   * Reads every persistent record into the index, swapped in at once; from the thread that applies
   * (or before there is one).
   */
  public void load() {
    long start = System.nanoTime();
    lastAppliedIndex = store.appliedIndex();
    lastAppliedTerm = store.appliedTerm();
    currentTerm = Math.max(currentTerm, lastAppliedTerm);
    int[] counts = new int[6];
    PersistentState next = new PersistentState();
    Map<String, Map<String, byte[]>> auth = new HashMap<>();
    try {
      store.forEach(NAMESPACES, (k, v) -> {
        next.putNamespace(Records.fromRecord(parse(NamespaceRecord.parser(), v)));
        counts[0]++;
      });
      store.forEach(SERVICES, (k, v) -> {
        next.putServiceInfo(Records.fromRecord(parse(ServiceRecord.parser(), v)));
        counts[1]++;
      });
      store.forEach(CLUSTERS, (k, v) -> {
        next.putCluster(Records.fromRecord(parse(ClusterRecord.parser(), v)));
        counts[2]++;
      });
      store.forEach(INSTANCES, (k, v) -> {
        next.putPersistent(Records.fromRecord(parse(InstanceRecord.parser(), v)));
        counts[3]++;
      });
      store.forEach(OVERRIDES, (k, v) -> {
        next.putOverride(Records.fromRecord(parse(InstanceOverrideRecord.parser(), v)));
        counts[4]++;
      });
      store.forEach(AUTH, (k, v) -> {
        AuthRecord r = parse(AuthRecord.parser(), v);
        auth.computeIfAbsent(r.getKind(), kind -> new HashMap<>()).put(r.getName(), r.getValue().toByteArray());
        counts[5]++;
      });
    } catch (IllegalStateException e) {
      throw new StorageException(
          "naming data in " + store.dir() + " is unreadable; restore the folder from a snapshot or"
              + " remove it so the node installs one from the leader",
          e);
    }
    // Swapped in at once: readers never see the persistent part missing while it reloads.
    index.replacePersistentState(next);
    authRecords.replaceAll(auth);
    log.info(
        "Loaded naming state from {} at applied index {} in {} ms: {} namespaces, {} services, {} clusters,"
            + " {} persistent instances, {} instance overrides, {} auth records",
        store.dir(), lastAppliedIndex, (System.nanoTime() - start) / 1_000_000,
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
  }

  private static <T> T parse(Parser<T> parser, byte[] bytes) {
    try {
      return parser.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
