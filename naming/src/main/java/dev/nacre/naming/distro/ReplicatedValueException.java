package dev.nacre.naming.distro;

/**
 * A key or value received from a peer could not be read as an ephemeral instance or a persistent
 * instance's health (a peer running a different version, or corruption). The record is skipped
 * and logged; the owner's next write of that key, or verify, replaces it.
 */
public final class ReplicatedValueException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ReplicatedValueException(String message) {
    super(message);
  }

  public ReplicatedValueException(String message, Throwable cause) {
    super(message, cause);
  }
}
