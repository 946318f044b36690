package dev.nacre.naming.model;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator set on an ephemeral instance through the Open API or the console: each present
 * field replaces what the instance's client registered. Kept in the replicated log, apart from the
 * client's registration, so that it outlives the client registering again on any node.
 *
 * @param revision log index of the entry that last changed it (0 before it is applied)
 */
public record InstanceOverride(
    InstanceKey key,
    Optional<Double> weight,
    Optional<Boolean> enabled,
    Optional<Map<String, String>> metadata,
    long revision) {

  public InstanceOverride {
    metadata = metadata.map(Map::copyOf);
  }

  /** The operator's fields of a patch; health is never overridden (it is the client's soft state). */
  public static InstanceOverride of(InstanceKey key, InstancePatch patch) {
    return new InstanceOverride(key, patch.weight(), patch.enabled(), patch.metadata(), 0);
  }

  /** This override with the fields present in {@code later} replacing its own. */
  public InstanceOverride with(InstanceOverride later, long newRevision) {
    return new InstanceOverride(
        key,
        later.weight.or(() -> weight),
        later.enabled.or(() -> enabled),
        later.metadata.or(() -> metadata),
        newRevision);
  }

  /** The instance consumers see: the registration with this override laid over it. */
  public Instance applyTo(Instance registered) {
    return new Instance(
        registered.key(),
        weight.orElse(registered.weight()),
        registered.healthy(),
        enabled.orElse(registered.enabled()),
        registered.ephemeral(),
        metadata.orElse(registered.metadata()));
  }

  public boolean isEmpty() {
    return weight.isEmpty() && enabled.isEmpty() && metadata.isEmpty();
  }
}
