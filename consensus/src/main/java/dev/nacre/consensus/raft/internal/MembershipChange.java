package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.ConsensusUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a Raft group to a new set of voting members with Ratis' {@code setConfiguration} (joint
 * consensus: the leader first brings new members up to date, then commits the old-and-new and the
 * new configuration). Any member may ask; the client finds the leader.
 *
 * <p>Retried until a bound: a new member that installs a snapshot can take longer than one
 * request, and an election during the change fails the request while the change goes on. A retry
 * of a change already committed is recognised by the member's own configuration.
 */
public final class MembershipChange {
  private static final Logger log = LoggerFactory.getLogger(MembershipChange.class);
  /** Between attempts: long enough for an election or a catch-up round to progress. */
  private static final Duration RETRY_PAUSE = Duration.ofMillis(250);

  private final String selfId;
  private final Supplier<RaftClient> clients;
  private final Supplier<RaftConfiguration> localConfiguration;

  /**
   * @param clients makes a fresh client for each attempt (closed after it)
   * @param localConfiguration this member's view of the group's configuration
   */
  public MembershipChange(String selfId, Supplier<RaftClient> clients, Supplier<RaftConfiguration> localConfiguration) {
    this.selfId = selfId;
    this.clients = clients;
    this.localConfiguration = localConfiguration;
  }

  /** The voting members of the configuration this member knows (the new one while a change is under way). */
  public static Map<String, String> peersOf(RaftConfiguration conf) {
    Map<String, String> out = new LinkedHashMap<>();
    for (RaftPeer p : conf.getCurrentPeers()) {
      out.put(p.getId().toString(), p.getAddress());
    }
    return out;
  }

  /**
   * Makes {@code target} (peer id to Raft address) the group's voting members; returns once the
   * new configuration is committed and this member has it. Throws
   * {@link ConsensusUnavailableException} when that did not happen within {@code bound}.
   */
  public void apply(Map<String, String> target, Duration bound) {
    List<RaftPeer> peers = target.entrySet().stream()
        .map(e -> RaftPeer.newBuilder().setId(e.getKey()).setAddress(e.getValue()).build())
        .toList();
    long deadline = System.nanoTime() + bound.toNanos();
    String lastError = "no attempt";
    int attempt = 0;
    while (true) {
      attempt++;
      try (RaftClient client = clients.get()) {
        RaftClientReply reply = client.admin().setConfiguration(peers);
        if (reply.isSuccess() && awaitLocal(target, deadline)) {
          log.info("[{}] Raft members are now {} (attempt {})", selfId, target.keySet(), attempt);
          return;
        }
        lastError = reply.isSuccess() ? "committed, but this member has not applied it yet"
            : String.valueOf(reply.getException());
      } catch (IOException | RuntimeException e) {
        lastError = e.toString();
      }
      if (isStable(target)) {
        log.info("[{}] Raft members are now {} (after {} attempts; last: {})", selfId, target.keySet(), attempt,
            lastError);
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new ConsensusUnavailableException("[" + selfId + "] the Raft members did not change to "
            + target.keySet() + " within " + bound.toMillis() + " ms (" + attempt + " attempts, last: " + lastError
            + "); check that a majority of the current members is up and that every new member runs and"
            + " reaches the others' Raft port, then retry");
      }
      log.info("[{}] Raft membership change to {} not done yet, retrying: {}", selfId, target.keySet(), lastError);
      LockSupport.parkNanos(RETRY_PAUSE.toNanos());
    }
  }

  private boolean awaitLocal(Map<String, String> target, long deadline) {
    while (!isStable(target)) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
    return true;
  }

  /** This member's configuration is {@code target} and no change is under way. */
  private boolean isStable(Map<String, String> target) {
    RaftConfiguration conf = localConfiguration.get();
    return conf != null && conf.getPreviousPeers().isEmpty() && peersOf(conf).keySet().equals(target.keySet());
  }
}
