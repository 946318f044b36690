package dev.nacre.naming.registry;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstanceOverride;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operators' overrides of ephemeral instances, as the replicated log has applied them on this
 * node (the state machine is the only writer). The registry index lays them over every ephemeral
 * instance it stores, whichever node registered it.
 *
 * <p>Thread-safe. Listeners hear of every key whose override changed, on the writer's thread.
 */
public final class OverrideTable {
  private static final Logger log = LoggerFactory.getLogger(OverrideTable.class);

  /** Told when the override of an instance was set, changed or removed. */
  @FunctionalInterface
  public interface Listener {
    void onOverrideChanged(InstanceKey key);
  }

  private final ConcurrentHashMap<InstanceKey, InstanceOverride> overrides = new ConcurrentHashMap<>();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  public void addListener(Listener listener) {
    listeners.add(listener);
  }

  public Optional<InstanceOverride> get(InstanceKey key) {
    return Optional.ofNullable(overrides.get(key));
  }

  /** The instance with its override laid over it, or as it is when it has none. */
  public Instance applyTo(Instance registered) {
    InstanceOverride o = overrides.get(registered.key());
    return o == null ? registered : o.applyTo(registered);
  }

  public List<InstanceOverride> all() {
    return List.copyOf(overrides.values());
  }

  public void put(InstanceOverride override) {
    overrides.put(override.key(), override);
    notifyChange(override.key());
  }

  public void remove(InstanceKey key) {
    if (overrides.remove(key) != null) {
      notifyChange(key);
    }
  }

  /**
   * Makes {@code next} the whole table: listeners hear only of keys whose override was added,
   * changed or removed, and an override present before and after stays in force throughout.
   */
  public void replaceAll(Collection<InstanceOverride> next) {
    Map<InstanceKey, InstanceOverride> wanted = new HashMap<>();
    next.forEach(o -> wanted.put(o.key(), o));
    wanted.forEach((key, o) -> {
      if (!o.equals(overrides.put(key, o))) {
        notifyChange(key);
      }
    });
    for (InstanceKey key : List.copyOf(overrides.keySet())) {
      if (!wanted.containsKey(key)) {
        remove(key);
      }
    }
  }

  /** Forgets every override (a snapshot is about to be loaded). */
  public void clear() {
    for (InstanceKey key : List.copyOf(overrides.keySet())) {
      remove(key);
    }
  }

  private void notifyChange(InstanceKey key) {
    for (Listener l : listeners) {
      try {
        l.onOverrideChanged(key);
      } catch (RuntimeException e) {
        // The override is committed; a listener's failure must not fail the log entry.
        log.warn("Override listener {} failed for {}", l, key.instanceId(), e);
      }
    }
  }
}
