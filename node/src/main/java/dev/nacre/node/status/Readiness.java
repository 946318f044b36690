package dev.nacre.node.status;

import java.util.Optional;

/**
 * Whether this node may answer clients yet, and where its ephemeral registry stands. A member
 * that has peers answers no read of ephemeral data before it has loaded them from a live peer
 * (issue 10: a restarted node that served an empty list). Thread-safe.
 */
public final class Readiness {

  /** The ephemeral (Distro) registry of this node. */
  public enum DistroState {
    /** Looking for a live peer, or loading its snapshot. */
    LOADING,
    /** Loaded from a live peer. */
    LOADED,
    /** No peer answered (or none gave a snapshot in time): started empty; verify fills in later. */
    ALONE,
    /** A standalone node: nothing to load. */
    STANDALONE
  }

  private volatile DistroState distro;
  private volatile boolean persistentLoaded;
  private volatile boolean serving;
  /** Set once this member learns it was removed from the cluster: it never serves again. */
  private volatile String removed;

  public Readiness(boolean clustered) {
    this.distro = clustered ? DistroState.LOADING : DistroState.STANDALONE;
  }

  public DistroState distro() {
    return distro;
  }

  public void distro(DistroState state) {
    this.distro = state;
  }

  /** The persistent registry (and the client-authentication records) are read from disk. */
  public void persistentLoaded() {
    this.persistentLoaded = true;
  }

  /**
   * Whether the persistent registry is read yet. Until it is, requests are refused before any
   * access check, which would refuse valid credentials against records not read yet.
   */
  public boolean isPersistentLoaded() {
    return persistentLoaded;
  }

  /** Every part runs: the client ports are open. */
  public void serving() {
    this.serving = true;
  }

  public boolean isReady() {
    return serving && persistentLoaded && distro != DistroState.LOADING && removed == null;
  }

  /** This node is no longer a member: every request but the probes is refused, with {@code why}. */
  public void removed(String why) {
    this.removed = why;
  }

  /** Why this node is not ready, for the readiness probe and refused requests; empty when ready. */
  public Optional<String> notReadyReason() {
    if (removed != null) {
      return Optional.of(removed);
    }
    if (!persistentLoaded) {
      return Optional.of("loading the persistent registry from disk");
    }
    if (distro == DistroState.LOADING) {
      return Optional.of("loading the ephemeral registry from a peer");
    }
    if (!serving) {
      return Optional.of("starting");
    }
    return Optional.empty();
  }
}
