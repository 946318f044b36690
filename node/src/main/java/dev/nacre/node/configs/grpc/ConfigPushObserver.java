package dev.nacre.node.configs.grpc;

/**
 * Told of every change notification ({@code ConfigChangeNotifyRequest}) this node's client port
 * decides on: for the meters. Called from the push threads; implementations must be thread-safe
 * and must not block.
 */
@FunctionalInterface
public interface ConfigPushObserver {
  ConfigPushObserver NONE = (outcome, nanos) -> {};

  /** What became of one attempt to tell a connection that a configuration changed. */
  enum Outcome {
    /** The client acknowledged the notification. */
    ACKED,
    /** No acknowledgement within the timeout, a refusal, or a send that failed: a retry follows. */
    FAILED,
    /** The last retry failed, or the connection closed while retrying: no more attempts. */
    GAVE_UP,
    /** The client already knew the current content (same md5): nothing was sent. */
    UNCHANGED
  }

  /**
   * @param nanos from the change reaching this node's listeners to this outcome (0 for
   *     {@link Outcome#UNCHANGED})
   */
  void notified(Outcome outcome, long nanos);
}
