package dev.nacre.naming.ephemeral;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which instance keys each client connection owns, so that a connection's instances are found
 * without scanning every record (registrations check the connection's other instances of the
 * service; a closing connection removes all of them). Kept in step by {@link EphemeralStore}
 * inside the per-key lock of every record change, so for one key it is never stale.
 */
final class ClientKeyIndex {
  /** Client id -> service -> the client's instance keys of that service. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<ServiceKey, Set<InstanceKey>>> keysByClient =
      new ConcurrentHashMap<>();

  /** Records that {@code key} went from {@code before} to {@code after} (either may be null). */
  void moved(InstanceKey key, EphemeralRecord before, EphemeralRecord after) {
    String was = clientHere(before);
    String now = clientHere(after);
    if (was.equals(now)) {
      return;
    }
    if (!was.isEmpty()) {
      keysByClient.computeIfPresent(was, (c, byService) -> {
        byService.computeIfPresent(key.service(), (s, keys) -> {
          keys.remove(key);
          return keys.isEmpty() ? null : keys;
        });
        return byService.isEmpty() ? null : byService;
      });
    }
    if (!now.isEmpty()) {
      keysByClient.compute(now, (c, byService) -> {
        ConcurrentHashMap<ServiceKey, Set<InstanceKey>> map = byService == null ? new ConcurrentHashMap<>() : byService;
        map.computeIfAbsent(key.service(), s -> ConcurrentHashMap.newKeySet()).add(key);
        return map;
      });
    }
  }

  /** The record's client connection on this node; "" for none (a replica's marker included). */
  private static String clientHere(EphemeralRecord r) {
    return r == null || r.clientId().equals(EphemeralRecord.OWNER_CONNECTION) ? "" : r.clientId();
  }

  List<InstanceKey> keysOf(String clientId) {
    Map<ServiceKey, Set<InstanceKey>> byService = keysByClient.get(clientId);
    return byService == null ? List.of() : byService.values().stream().flatMap(Set::stream).toList();
  }

  /** The client's keys of one service: a registration looks at these only, not at all its keys. */
  List<InstanceKey> keysOf(String clientId, ServiceKey service) {
    Map<ServiceKey, Set<InstanceKey>> byService = keysByClient.get(clientId);
    Set<InstanceKey> keys = byService == null ? null : byService.get(service);
    return keys == null ? List.of() : List.copyOf(keys);
  }

  int clients() {
    return keysByClient.size();
  }
}
