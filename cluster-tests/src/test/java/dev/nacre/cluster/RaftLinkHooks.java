package dev.nacre.cluster;

import dev.nacre.consensus.raft.ForwardInterceptor;
import dev.nacre.consensus.raft.RatisReplicatedLog;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.util.CodeInjectionForTesting;

/**
 * Routes Ratis' JVM-wide test hooks ({@link CodeInjectionForTesting}), and the batches forwarded to
 * a leader ({@link #FORWARDS}, each node's {@link ForwardInterceptor}), to the {@link LinkFaults} of
 * the cluster that owns the peers involved. Ratis calls each hook on the receiving server before it
 * handles a vote (pre-vote included), an append (heartbeats included), a snapshot installation, a
 * leader-election nudge or a client's write; the forward interceptor runs before the leader
 * handles a member's batch. Either drops the call by throwing (the sender sees a failed RPC and
 * retries as on a broken connection) or delays it by holding the handler's thread.
 * That is why a cluster's nodes run the Raft port's handlers on a pool
 * ({@code RaftConfig.HandlerThreads.POOL}, see {@link FaultSeams}): on the transport threads, which
 * every member in the JVM shares, a held handler would hold all of them.
 *
 * <p>The only static state is this routing table, keyed by Raft peer id; each cluster registers
 * its peers and removes them on close. Peers that no cluster registered pass untouched, so tests
 * that do not inject faults are not affected. Thread-safe.
 */
final class RaftLinkHooks {
  /** Peer id -> the cluster that owns it. */
  private static final Map<String, Route> ROUTES = new ConcurrentHashMap<>();
  /** High bits of a member's Raft client ids -> its peer id (client writes arrive with a client id). */
  private static final Map<Long, String> CLIENTS = new ConcurrentHashMap<>();
  private static volatile boolean installed;

  private record Route(String member, LinkFaults faults) {}

  private RaftLinkHooks() {}

  /** Thrown inside Ratis' handler: the RPC fails as if the connection had broken. */
  static final class LinkCutException extends IllegalStateException {
    LinkCutException(String from, String to) {
      super("Raft link cut by fault injection (" + from + " -> " + to + ")");
    }
  }

  /** Routes the hooks of {@code peerId} (member {@code member}) to {@code faults}; close to remove. */
  static AutoCloseable register(String peerId, String member, LinkFaults faults) {
    install();
    if (ROUTES.putIfAbsent(peerId, new Route(member, faults)) != null) {
      throw new IllegalStateException("Raft peer id " + peerId + " is already registered by another cluster in this JVM");
    }
    long prefix = RatisReplicatedLog.clientIdPrefix(peerId);
    CLIENTS.put(prefix, peerId);
    return () -> {
      ROUTES.remove(peerId);
      CLIENTS.remove(prefix, peerId);
    };
  }

  private static synchronized void install() {
    if (installed) {
      return;
    }
    for (String name : hookNames()) {
      CodeInjectionForTesting.put(name, RaftLinkHooks::onCall);
    }
    installed = true;
  }

  /**
   * A member's writes reach the leader as forwarded batches, on a call of the Raft port of its own:
   * each node of a cluster runs with this interceptor, which routes like Ratis' hooks.
   */
  static final ForwardInterceptor FORWARDS = (self, sender, operations) ->
      sender.ifPresent(from -> onCall(self, RaftPeerId.valueOf(from)));

  /** The names are package-private constants of Ratis' server; read them rather than copy them. */
  private static List<String> hookNames() {
    try {
      Class<?> server = Class.forName("org.apache.ratis.server.impl.RaftServerImpl");
      return List.of(constant(server, "REQUEST_VOTE"), constant(server, "APPEND_ENTRIES"),
          constant(server, "INSTALL_SNAPSHOT"), constant(server, "START_LEADER_ELECTION"),
          constant(server, "APPEND_TRANSACTION"));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Ratis' test hook names moved (Ratis upgraded?): " + e, e);
    }
  }

  private static String constant(Class<?> type, String field) throws ReflectiveOperationException {
    Field f = type.getDeclaredField(field);
    f.setAccessible(true);
    return (String) f.get(null);
  }

  /** Ratis passes (local = the receiving server, remote = the sender: a peer id or a client id). */
  private static boolean onCall(Object local, Object remote, Object... args) {
    Route to = local == null ? null : ROUTES.get(local.toString());
    String fromPeer = senderPeerId(remote);
    Route from = fromPeer == null ? null : ROUTES.get(fromPeer);
    if (to == null || from == null || from.faults() != to.faults() || from.member().equals(to.member())) {
      return false;
    }
    LinkFilter.Decision d = to.faults().decide(from.member(), to.member());
    if (d.dropped()) {
      throw new LinkCutException(from.member(), to.member());
    }
    if (!d.delay().isZero()) {
      LockSupport.parkNanos(d.delay().toNanos());
    }
    return false;
  }

  private static String senderPeerId(Object remote) {
    if (remote instanceof RaftPeerId p) {
      return p.toString();
    }
    if (remote instanceof ClientId c) {
      return CLIENTS.get(c.getUuid().getMostSignificantBits());
    }
    return null;
  }
}
