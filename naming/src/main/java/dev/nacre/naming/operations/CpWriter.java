package dev.nacre.naming.operations;

import dev.nacre.consensus.async.Completions;
import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.naming.api.NamingException;
import dev.nacre.proto.naming.NamingOperation;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Submits naming operations to the replicated log and waits (or, with {@link #submit}, lets the
 * caller be called back), never longer than the CP write timeout, turning every way it can fail
 * into a {@link NamingException} an operator can act on.
 */
final class CpWriter {
  private final ReplicatedLog log;
  private final Duration timeout;

  CpWriter(ReplicatedLog log, Duration timeout) {
    this.log = log;
    this.timeout = timeout;
  }

  /** Returns once the operation is committed and applied on this node. */
  void write(NamingOperation op, String what) {
    join(submit(op, what));
  }

  /** Waits for a future of {@link #submit}, which is bounded by the CP write timeout already. */
  static void join(CompletableFuture<Void> submitted) {
    try {
      submitted.join();
    } catch (CompletionException e) {
      throw failure(e.getCause() == null ? e : e.getCause(), "CP write");
    }
  }

  /**
   * Completes once the operation is committed and applied on this node, or fails with a
   * {@link NamingException} within the CP write timeout; nothing waits meanwhile.
   */
  CompletableFuture<Void> submit(NamingOperation op, String what) {
    CompletableFuture<byte[]> result;
    try {
      result = log.submit(op.toByteArray());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(failure(e, what));
    }
    // On timeout orTimeout fails the log's own future, which drops the operation if not yet sent.
    return result.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((applied, error) -> {
      if (error == null) {
        return null;
      }
      Throwable cause = Completions.cause(error);
      throw cause instanceof TimeoutException ? timedOut(what, cause) : failure(cause, what);
    });
  }

  /** Returns once this node has applied everything committed before the call. */
  void readBarrier(String what) {
    CompletableFuture<Void> result;
    try {
      result = log.readBarrier();
    } catch (RuntimeException e) {
      throw failure(e, what);
    }
    await(result, what);
  }

  private void await(CompletableFuture<?> result, String what) {
    try {
      result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      result.cancel(false);
      throw timedOut(what, e);
    } catch (ExecutionException e) {
      throw failure(e.getCause() == null ? e : e.getCause(), what);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NamingException(
          NamingException.Kind.UNAVAILABLE, "CP write could not commit: " + what + " was interrupted", e);
    }
  }

  private NamingException timedOut(String what, Throwable cause) {
    return new NamingException(
        NamingException.Kind.UNAVAILABLE,
        "CP write could not commit: " + what + " did not complete within " + timeout.toMillis()
            + " ms. The Raft group has no leader or no quorum; persistent instances, services"
            + " and namespaces cannot change until a majority of nodes is reachable.",
        cause);
  }

  private static NamingException failure(Throwable cause, String what) {
    if (cause instanceof NamingException alreadyTranslated) {
      return alreadyTranslated;
    }
    if (cause instanceof OperationRejectedException) {
      return new NamingException(NamingException.Kind.CONFLICT, cause.getMessage(), cause);
    }
    String why =
        cause instanceof ConsensusUnavailableException
            ? cause.getMessage()
            : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return new NamingException(
        NamingException.Kind.UNAVAILABLE,
        "CP write could not commit: " + what + " failed because " + why
            + ". Persistent instances, services and namespaces cannot change until the Raft group"
            + " has a leader and a quorum; ephemeral instances are not affected.",
        cause);
  }
}
