package dev.nacre.naming.operations;

import dev.nacre.consensus.async.Completions;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstanceOverride;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.Records;
import dev.nacre.naming.registry.OverrideTable;
import dev.nacre.proto.naming.NamingOperation;
import dev.nacre.proto.naming.RemoveInstanceOverride;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operators' edits of ephemeral instances (weight, enabled, metadata) go to the replicated log as
 * overrides rather than into the client's registration, so that they survive the client
 * registering again, on this node or another (Nacos loses them then: its issues #10975, #11890).
 *
 * <p>An override ends when the instance is explicitly deregistered, or once the instance has been
 * absent from every node for the retention period ({@link dev.nacre.naming.operations.OverrideCleaner}).
 */
final class InstanceOverrides {
  private static final Logger log = LoggerFactory.getLogger(InstanceOverrides.class);

  private final OverrideTable table;
  private final CpWriter cp;

  InstanceOverrides(OverrideTable table, CpWriter cp) {
    this.table = table;
    this.cp = cp;
  }

  /** Commits the patch's weight, enabled and metadata over the instance's current override. */
  void edit(InstanceKey key, InstancePatch patch) {
    InstanceOverride edit = InstanceOverride.of(key, patch);
    if (edit.isEmpty()) {
      return;
    }
    cp.write(
        NamingOperation.newBuilder().setPutInstanceOverride(Records.toRecord(edit)).build(),
        "recording the operator's edit of ephemeral instance " + key.instanceId());
  }

  /**
   * The instance was deregistered: its override ends. Without a quorum the deregistration still
   * stands (ephemeral writes stay available) and the override is left to the retention cleanup.
   * Completes, never exceptionally, once the override has ended or was left; nothing waits.
   */
  CompletableFuture<Void> endOnDeregister(InstanceKey key) {
    if (table.get(key).isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return cp.submit(
        NamingOperation.newBuilder()
            .setRemoveInstanceOverride(RemoveInstanceOverride.newBuilder().setId(Records.toProto(key)))
            .build(),
        "ending the operator override of deregistered instance " + key.instanceId())
        .exceptionally(e -> {
          log.warn("Instance {} is deregistered but its operator override stays until the retention"
              + " cleanup removes it: {}", key.instanceId(),
              Completions.cause(e).getMessage());
          return null;
        });
  }
}
