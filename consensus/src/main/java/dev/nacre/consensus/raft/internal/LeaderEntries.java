package dev.nacre.consensus.raft.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * The entries a member appends to its own Raft log while it leads: one batch of operations (its
 * own and those other members forwarded) per entry, completed once this member has applied it.
 *
 * <p>Never redirected to another member, unlike a Raft client's write: a forward that waited here
 * while this member lost leadership (a paused or cut-off leader) could otherwise reach the new
 * leader after its sender's repeat had been committed there, and apply twice. An append on a
 * member that no longer leads is refused, or truncated by the next leader, so it never commits.
 * Appends wait until the leader is ready (it has applied every entry of earlier terms), so
 * forwarded operations already committed by an earlier leader are found among {@link
 * ForwardedRequests}' results and answered from there instead of being appended again.
 */
public final class LeaderEntries {
  /** How often a just-elected leader is asked again whether it is ready to append. */
  private static final Executor READY_POLL = CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS);

  private final RaftServer server;
  private final RaftGroupId groupId;
  private final RaftPeerId selfId;
  private final AppliedIndexWaiters appliedWaiters;
  private final ForwardedRequests forwarded;
  private final Duration timeout;
  /** The client identity of the entries appended here. */
  private final ClientId author;
  private final AtomicLong callId = new AtomicLong();

  /**
   * @param authorPrefix the high 64 bits of the client id the entries carry (see
   *     {@code RatisReplicatedLog.clientIdPrefix})
   * @param timeout how long an append may wait for readiness and then for its commit
   */
  public LeaderEntries(RaftServer server, RaftGroupId groupId, RaftPeerId selfId, long authorPrefix,
      AppliedIndexWaiters appliedWaiters, ForwardedRequests forwarded, Duration timeout) {
    this.server = server;
    this.groupId = groupId;
    this.selfId = selfId;
    this.appliedWaiters = appliedWaiters;
    this.forwarded = forwarded;
    this.timeout = timeout;
    this.author = ClientId.valueOf(new UUID(authorPrefix, UUID.randomUUID().getLeastSignificantBits()));
  }

  private enum Leadership { NONE, ELECTED, READY }

  /**
   * Leads, ready or about to be (its first entry on its way): operations submitted now go into this
   * member's own entries, which wait for readiness, rather than to itself through a Raft client,
   * which a leader that is not ready refuses.
   */
  public boolean leadsNow() {
    return leadership(division()) != Leadership.NONE;
  }

  /** This member's division of the group; null when the server does not run it (not started, stopped). */
  private RaftServer.Division division() {
    try {
      return server.getDivision(groupId);
    } catch (IOException e) {
      return null;
    }
  }

  private static Leadership leadership(RaftServer.Division division) {
    if (division == null) {
      return Leadership.NONE; // not running: the forward path fails or redirects as usual
    }
    DivisionInfo info = division.getInfo();
    return !info.isLeader() ? Leadership.NONE : info.isLeaderReady() ? Leadership.READY : Leadership.ELECTED;
  }

  /**
   * Where the entry goes: the division itself where it takes client requests (Ratis' implementation
   * does). The server's entry point hands each request to a pool thread and waits for it to return,
   * two thread switches per entry that buy nothing when the caller waits anyway; it stays the
   * fallback for a division that does not.
   */
  private RaftClientAsynchronousProtocol appendTarget(RaftServer.Division division) {
    return division instanceof RaftClientAsynchronousProtocol target ? target : server;
  }

  /**
   * Appends {@code operations} as one entry; completes with each one's tagged result once this
   * member applied the entry. Fails, with nothing appended, when this member does not lead.
   */
  public CompletableFuture<List<byte[]>> append(List<TrackedOperation> operations) {
    return append(operations, System.nanoTime() + timeout.toNanos());
  }

  private CompletableFuture<List<byte[]>> append(List<TrackedOperation> operations, long deadlineNanos) {
    RaftServer.Division division = division();
    Leadership now = leadership(division);
    if (now == Leadership.ELECTED && System.nanoTime() < deadlineNanos) {
      // Ready once its first entry is applied, a round trip from now; the writes that arrive
      // meanwhile wait for that, as they would in a Raft client's retries, instead of failing.
      return CompletableFuture.supplyAsync(() -> null, READY_POLL).thenCompose(v -> append(operations, deadlineNanos));
    }
    if (now != Leadership.READY) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          "this member stopped leading before the batch left; nothing of it was appended"));
    }
    byte[][] results = new byte[operations.size()][];
    List<TrackedOperation> fresh = new ArrayList<>(operations.size());
    List<Integer> freshAt = new ArrayList<>(operations.size());
    for (int i = 0; i < operations.size(); i++) {
      TrackedOperation op = operations.get(i);
      results[i] = op.forwarded() ? forwarded.appliedResult(op.key()) : null;
      if (results[i] == null) {
        fresh.add(op);
        freshAt.add(i);
      }
    }
    if (fresh.isEmpty()) {
      return CompletableFuture.completedFuture(List.of(results));
    }
    RaftClientRequest request = RaftClientRequest.newBuilder()
        .setClientId(author).setServerId(selfId).setGroupId(groupId)
        .setCallId(callId.incrementAndGet())
        .setMessage(Message.valueOf(UnsafeByteOperations.unsafeWrap(EntryCodec.encodeEntry(fresh))))
        .setType(RaftClientRequest.writeRequestType())
        .build();
    CompletableFuture<RaftClientReply> reply;
    try {
      reply = appendTarget(division).submitClientRequestAsync(request);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    // Bounded: a leader cut off from the others may keep the append pending until it steps down.
    return reply.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).thenCompose(r -> {
      if (!r.isSuccess()) {
        throw new CompletionException(r.getException());
      }
      List<byte[]> appended = EntryCodec.decodeOutcomes(r.getMessage().getContent().toByteArray(), fresh.size());
      for (int j = 0; j < appended.size(); j++) {
        results[freshAt.get(j)] = appended.get(j);
      }
      return appliedWaiters.await(r.getLogIndex()).thenApply(v -> List.of(results));
    });
  }
}
