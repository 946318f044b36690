package dev.nacre.consensus.raft.internal;

import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.protocol.exceptions.RaftRetryFailureException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Raft client that is replaced once a failure has disabled it.
 *
 * <p>Ratis sends the async requests of one client as one ordered stream (a sliding window of
 * sequence numbers). When a request's retries run out (no quorum for the request timeout), Ratis
 * fails that request and every later one of the window, and keeps failing every new request of
 * that client with {@link AlreadyClosedException}, even once the group has a leader again. So such
 * a failure means the client can never send again: {@link #renewIfDisabled} replaces it. Its
 * requests in flight have all failed already; closing it also fails its unordered read barriers,
 * which retry on the new client. A write that timed out may still be committed (once) from the
 * survivor's log, but the closed client never resends it. Chosen over the alternatives: the
 * blocking API on a 16-thread executor (independent writes) measured 0.6x of this throughput at 64
 * writes in flight and 0.4x at 256 (3 local members, one follower writing); retrying writes forever
 * would queue every later write behind the one that timed out, for as long as the outage lasts.
 */
public final class RenewableClient implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RenewableClient.class);

  private final String selfId;
  private final String purpose;
  private final Supplier<RaftClient> factory;
  private final Object lock = new Object();
  private volatile RaftClient current;
  private boolean closed;

  /** @param purpose what this client sends, for the log */
  public RenewableClient(String selfId, String purpose, Supplier<RaftClient> factory) {
    this.selfId = selfId;
    this.purpose = purpose;
    this.factory = factory;
    this.current = factory.get();
  }

  public RaftClient current() {
    return current;
  }

  /** Replaces {@code failed} when {@code error} (of one of its requests) has disabled it. */
  public void renewIfDisabled(RaftClient failed, Throwable error) {
    Throwable cause = BoundedCalls.unwrap(error);
    if (!(cause instanceof RaftRetryFailureException || cause instanceof AlreadyClosedException)) {
      return;
    }
    RaftClient renewed;
    synchronized (lock) {
      if (current != failed || closed) {
        return; // already renewed by a concurrent failure, or this member is stopping
      }
      renewed = factory.get();
      current = renewed;
    }
    log.info("[{}] Raft client {} for {} gave up a request ({}); it continues on new client {}", selfId,
        failed.getId(), purpose, cause.getClass().getSimpleName(), renewed.getId());
    // Not on this thread: it may be one of the failed client's own, which closing waits for.
    Thread closer = new Thread(() -> closeQuietly(failed), "nacre-raft-client-close-" + selfId);
    closer.setDaemon(true);
    closer.start();
  }

  /** Closes the current client; no renewal after this. */
  @Override
  public void close() {
    RaftClient last;
    synchronized (lock) {
      closed = true;
      last = current;
    }
    // Outside the lock: closing fails the client's pending requests, whose callbacks may renew.
    closeQuietly(last);
  }

  private void closeQuietly(RaftClient client) {
    try {
      client.close();
    } catch (Exception e) {
      log.warn("[{}] closing the Raft client for {} failed", selfId, purpose, e);
    }
  }
}
