package dev.nacre.naming.persistent;

import static dev.nacre.naming.persistent.RecordKeys.AUTH;
import static dev.nacre.naming.persistent.RecordKeys.CLUSTERS;
import static dev.nacre.naming.persistent.RecordKeys.INSTANCES;
import static dev.nacre.naming.persistent.RecordKeys.NAMESPACES;
import static dev.nacre.naming.persistent.RecordKeys.OVERRIDES;
import static dev.nacre.naming.persistent.RecordKeys.SERVICES;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.state.StateDomain;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.ratis.thirdparty.com.google.protobuf.Parser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CP half of the registry, as a domain of the shared replicated state: applies committed
 * {@link NamingOperation}s to its column families (one per record kind, see {@link RecordKeys})
 * and to the {@link RegistryIndex}. Persistent-instance health is soft state: the index starts
 * from the registration's flag and probes change it; it never enters the log or RocksDB.
 *
 * <p>{@link #apply} and {@link #load} come from the state machine's one applying thread; the index
 * may be read concurrently.
 */
public final class PersistentNaming implements StateDomain {
  private static final Logger log = LoggerFactory.getLogger(PersistentNaming.class);
  /** The first byte of naming's operations in the shared log. */
  public static final byte KIND = 'N';
  static final List<String> FAMILIES = List.of(NAMESPACES, SERVICES, CLUSTERS, INSTANCES, OVERRIDES, AUTH);

  private final RegistryIndex index;
  private final AuthRecords authRecords = new AuthRecords();
  private volatile OperationApplier applier;

  public PersistentNaming(RegistryIndex index) {
    this.index = index;
  }

  public RegistryIndex index() {
    return index;
  }

  /** The applied client-authentication records (users, roles, permissions). */
  public AuthRecords authRecords() {
    return authRecords;
  }

  @Override
  public byte kind() {
    return KIND;
  }

  @Override
  public String name() {
    return "naming";
  }

  @Override
  public List<String> families() {
    return FAMILIES;
  }

  /**
   * Applies one operation: its index update is visible to the next operation of the same entry
   * (so two creates of one namespace in an entry conflict as they would in two entries).
   */
  @Override
  public Applied apply(RocksStore store, long logIndex, byte[] operation, int offset, Batch entry) {
    OperationApplier.Effect effect;
    try {
      effect = applierFor(store).effectOf(NamingOperation.parser().parseFrom(operation, offset, operation.length - offset), logIndex, entry);
    } catch (InvalidProtocolBufferException e) {
      throw new OperationRejectedException("entry " + logIndex + " is not a naming operation: " + e.getMessage());
    }
    return Applied.of(effect.batch(), effect::applyToIndex);
  }

  private OperationApplier applierFor(RocksStore store) {
    OperationApplier current = applier;
    if (current == null) {
      current = new OperationApplier(store, index, authRecords);
      applier = current;
    }
    return current;
  }

  /**
   * Reads every persistent record into the index, swapped in at once; from the thread that applies
   * (or before there is one).
   */
  @Override
  public void load(RocksStore store) {
    long start = System.nanoTime();
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
        store.dir(), store.appliedIndex(), (System.nanoTime() - start) / 1_000_000,
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
  }

  private static <T> T parse(Parser<T> parser, byte[] bytes) {
    try {
      return parser.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }
}
