package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.InstanceKey;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which instance keys each client connection owns, so that a connection's instances are found
 * without scanning every record (registrations check the connection's other instances of the
 * service; a closing connection removes all of them). Kept in step by {@link EphemeralStore}
 * inside the per-key lock of every record change, so for one key it is never stale.
 */
final class ClientKeyIndex {
  private final ConcurrentHashMap<String, Set<InstanceKey>> keysByClient = new ConcurrentHashMap<>();

  /** Records that {@code key} went from {@code before} to {@code after} (either may be null). */
  void moved(InstanceKey key, EphemeralRecord before, EphemeralRecord after) {
    String was = before == null ? "" : before.clientId();
    String now = after == null ? "" : after.clientId();
    if (was.equals(now)) {
      return;
    }
    if (!was.isEmpty()) {
      keysByClient.computeIfPresent(was, (c, keys) -> {
        keys.remove(key);
        return keys.isEmpty() ? null : keys;
      });
    }
    if (!now.isEmpty()) {
      keysByClient.compute(now, (c, keys) -> {
        Set<InstanceKey> set = keys == null ? ConcurrentHashMap.newKeySet() : keys;
        set.add(key);
        return set;
      });
    }
  }

  List<InstanceKey> keysOf(String clientId) {
    Set<InstanceKey> keys = keysByClient.get(clientId);
    return keys == null ? List.of() : List.copyOf(keys);
  }

  int clients() {
    return keysByClient.size();
  }
}
