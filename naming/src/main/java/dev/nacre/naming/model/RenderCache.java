package dev.nacre.naming.model;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Encodings of one host list (e.g. its JSON for HTTP, for gRPC), kept with the list so that every
 * answer from the same service snapshot and the same filter reuses them. Whoever renders names
 * the encoding; the value must depend only on the {@link ServiceView}'s host list, checksum,
 * service and protection flag, never on the request or the time. Thread-safe.
 */
public final class RenderCache {
  private final ConcurrentHashMap<String, Object> values = new ConcurrentHashMap<>(4);

  /** The encoding named {@code name}, rendered by the first caller. */
  @SuppressWarnings("unchecked")
  public <T> T get(String name, Supplier<T> render) {
    Object known = values.get(name);
    if (known != null) {
      return (T) known;
    }
    return (T) values.computeIfAbsent(name, n -> render.get());
  }
}
