package dev.nacre.config.api;

/**
 * Told of every publish and delete this member's operations finish, for the meters. Called on the
 * thread that completes the write; must be thread-safe and must not block.
 */
@FunctionalInterface
public interface ConfigWriteObserver {
  ConfigWriteObserver NONE = (operation, result, nanos) -> {};

  /** The write kinds observed. */
  enum Operation { PUBLISH, REMOVE }

  /**
   * @param result {@code ok}, or the refusal's kind in lowercase ({@code invalid}, {@code conflict},
   *     {@code limited}, {@code unavailable}, {@code not_found})
   * @param nanos from the call to its completion
   */
  void written(Operation operation, String result, long nanos);
}
