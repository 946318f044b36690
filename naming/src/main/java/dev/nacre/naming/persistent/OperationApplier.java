package dev.nacre.naming.persistent;

import static dev.nacre.naming.persistent.RecordKeys.AUTH;
import static dev.nacre.naming.persistent.RecordKeys.CLUSTERS;
import static dev.nacre.naming.persistent.RecordKeys.INSTANCES;
import static dev.nacre.naming.persistent.RecordKeys.NAMESPACES;
import static dev.nacre.naming.persistent.RecordKeys.OVERRIDES;
import static dev.nacre.naming.persistent.RecordKeys.SERVICES;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstanceOverride;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.naming.registry.ServiceSnapshot;
import dev.nacre.proto.naming.AuthRecord;
import dev.nacre.proto.naming.AuthRecordId;
import dev.nacre.proto.naming.NamingOperation;
import dev.nacre.proto.naming.RemoveInstanceOverride;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns one committed {@link NamingOperation} into the RocksDB mutations and the index updates
 * that carry it out, or refuses it. Refusals depend only on persistent state (RocksDB and the
 * persistent part of the index, which mirrors it), never on ephemeral data or time, so every
 * member decides the same way.
 */
final class OperationApplier {
  /** What applying one operation does: written to RocksDB first, then to the index. */
  record Effect(Batch batch, List<Runnable> indexUpdates) {
    void applyToIndex() {
      indexUpdates.forEach(Runnable::run);
    }
  }

  private final RocksStore store;
  private final RegistryIndex index;
  private final AuthRecords authRecords;

  OperationApplier(RocksStore store, RegistryIndex index, AuthRecords authRecords) {
    this.store = store;
    this.index = index;
    this.authRecords = authRecords;
  }

  /**
   * @param logIndex the entry's index, which becomes the revision of what it writes
   * @param entry what the operations before this one in the same entry write; reads see it
   */
  Effect effectOf(NamingOperation op, long logIndex, Batch entry) {
    Batch batch = new Batch();
    List<Runnable> updates = new ArrayList<>();
    switch (op.getOpCase()) {
      case PUT_INSTANCE -> {
        Instance instance = Records.fromRecord(op.getPutInstance());
        batch.put(INSTANCES, RecordKeys.instance(instance.key()), op.getPutInstance().toByteArray());
        updates.add(() -> index.putPersistent(instance));
      }
      case REMOVE_INSTANCE -> {
        InstanceKey key = Records.fromProto(op.getRemoveInstance());
        batch.delete(INSTANCES, RecordKeys.instance(key));
        updates.add(() -> index.remove(key, false));
      }
      case PUT_SERVICE -> putService(Records.fromRecord(op.getPutService()), batch, updates);
      case CREATE_SERVICE -> {
        ServiceInfo info = Records.fromRecord(op.getCreateService());
        boolean exists =
            store.get(SERVICES, RecordKeys.service(info.key()), entry).isPresent()
                || index.snapshot(info.key()).hasPersistentInstances();
        if (exists) {
          throw new OperationRejectedException(
              "specified service " + info.key().groupedName() + " already exists in namespace "
                  + info.key().namespaceId() + "!");
        }
        putService(info, batch, updates);
      }
      case REMOVE_SERVICE -> removeService(Records.fromProto(op.getRemoveService()), batch, updates);
      case PUT_NAMESPACE -> putNamespace(Records.fromRecord(op.getPutNamespace()), batch, updates);
      case CREATE_NAMESPACE -> {
        Namespace ns = Records.fromRecord(op.getCreateNamespace());
        if (Namespace.PUBLIC.id().equals(ns.id())
            || store.get(NAMESPACES, RecordKeys.namespace(ns.id()), entry).isPresent()) {
          throw new OperationRejectedException("namespace " + ns.id() + " already exists");
        }
        putNamespace(ns, batch, updates);
      }
      case REMOVE_NAMESPACE -> {
        String id = op.getRemoveNamespace();
        if (Namespace.PUBLIC.id().equals(id)) {
          throw new OperationRejectedException("namespace public is built in and cannot be deleted");
        }
        batch.delete(NAMESPACES, RecordKeys.namespace(id));
        updates.add(() -> index.removeNamespace(id));
      }
      case PUT_CLUSTER -> {
        ClusterInfo cluster = Records.fromRecord(op.getPutCluster());
        batch.put(
            CLUSTERS, RecordKeys.cluster(cluster.service(), cluster.name()), op.getPutCluster().toByteArray());
        updates.add(() -> index.putCluster(cluster));
      }
      case PUT_INSTANCE_OVERRIDE -> putOverride(Records.fromRecord(op.getPutInstanceOverride()), logIndex, batch, updates);
      case REMOVE_INSTANCE_OVERRIDE -> removeOverride(op.getRemoveInstanceOverride(), batch, updates);
      case PUT_AUTH_RECORD -> putAuthRecord(op.getPutAuthRecord(), batch, updates);
      case CREATE_AUTH_RECORD -> {
        AuthRecord record = op.getCreateAuthRecord();
        // The records of earlier operations of this entry are already in memory.
        if (authRecords.get(record.getKind(), record.getName()).isPresent()) {
          throw new OperationRejectedException(record.getKind() + " " + record.getName() + " already exists");
        }
        putAuthRecord(record, batch, updates);
      }
      case REMOVE_AUTH_RECORD -> {
        AuthRecordId id = op.getRemoveAuthRecord();
        batch.delete(AUTH, RecordKeys.authRecord(id.getKind(), id.getName()));
        updates.add(() -> authRecords.remove(id.getKind(), id.getName()));
      }
      case OP_NOT_SET -> throw new OperationRejectedException(
          "empty naming operation; the submitting node runs an incompatible version");
    }
    return new Effect(batch, updates);
  }

  private void putService(ServiceInfo info, Batch batch, List<Runnable> updates) {
    batch.put(SERVICES, RecordKeys.service(info.key()), Records.toRecord(info).toByteArray());
    updates.add(() -> index.putServiceInfo(info));
  }

  private void removeService(ServiceKey key, Batch batch, List<Runnable> updates) {
    ServiceSnapshot snapshot = index.snapshot(key);
    if (snapshot.hasPersistentInstances()) {
      throw new OperationRejectedException(
          "Service " + key.groupedName() + " is not empty, can't be delete. Please unregister"
              + " instance first");
    }
    batch.delete(SERVICES, RecordKeys.service(key));
    // Cluster settings belong to the service and go with it, as in Nacos.
    for (ClusterInfo cluster : snapshot.configuredClusters()) {
      batch.delete(CLUSTERS, RecordKeys.cluster(key, cluster.name()));
    }
    updates.add(
        () -> {
          index.removeServiceInfo(key);
          snapshot.configuredClusters().forEach(c -> index.removeCluster(key, c.name()));
        });
  }

  /** The submitted fields replace those of the current override, so concurrent edits of different fields both hold. */
  private void putOverride(InstanceOverride edit, long logIndex, Batch batch, List<Runnable> updates) {
    InstanceOverride next = index.overrides().get(edit.key()).orElse(edit).with(edit, logIndex);
    batch.put(OVERRIDES, RecordKeys.instance(next.key()), Records.toRecord(next).toByteArray());
    updates.add(() -> index.overrides().put(next));
  }

  private void removeOverride(RemoveInstanceOverride op, Batch batch, List<Runnable> updates) {
    InstanceKey key = Records.fromProto(op.getId());
    Optional<InstanceOverride> current = index.overrides().get(key);
    if (current.isEmpty() || (op.getIfRevision() != 0 && current.get().revision() != op.getIfRevision())) {
      return;
    }
    batch.delete(OVERRIDES, RecordKeys.instance(key));
    updates.add(() -> index.overrides().remove(key));
  }

  private void putAuthRecord(AuthRecord record, Batch batch, List<Runnable> updates) {
    if (record.getKind().isEmpty() || record.getName().isEmpty()) {
      throw new OperationRejectedException("an auth record needs a kind and a name");
    }
    batch.put(AUTH, RecordKeys.authRecord(record.getKind(), record.getName()), record.toByteArray());
    byte[] value = record.getValue().toByteArray();
    updates.add(() -> authRecords.put(record.getKind(), record.getName(), value));
  }

  private void putNamespace(Namespace ns, Batch batch, List<Runnable> updates) {
    batch.put(NAMESPACES, RecordKeys.namespace(ns.id()), Records.toRecord(ns).toByteArray());
    updates.add(() -> index.putNamespace(ns));
  }
}
