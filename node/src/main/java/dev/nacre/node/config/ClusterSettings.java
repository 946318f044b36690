package dev.nacre.node.config;

import dev.nacre.consensus.distro.DistroConfig;
import dev.nacre.consensus.tls.TlsFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How members find and trust each other and replicate ephemeral data.
 *
 * @param secret shared by every member; proves peer calls (never sent itself)
 * @param pingPeriod how often each member pings every other one
 * @param failedPingsToDown missed pings in a row after which a member is DOWN (Nacos: 3)
 * @param peerWaitAtStart how long a starting member pings the others until one answers before it
 *     loads the ephemeral registry; when none answers by then it starts empty, alone (10 s)
 * @param peerMaxCalls calls the peer port runs at once; one more is refused with RESOURCE_EXHAUSTED
 *     (and retried by its sender), so a flood cannot grow the handler pool without bound
 * @param tlsFiles an operator's certificates for both member ports (Raft and peer) instead of the
 *     ones derived from the secret ({@code nacre.tls.cert}, {@code .key}, {@code .ca})
 * @param memberFile Nacos' {@code cluster.conf} the member list was read from ({@code --cluster-conf}):
 *     rewritten with the members whenever they change, as Nacos does, so that it never lists a
 *     stale cluster
 */
public record ClusterSettings(String secret, Duration pingPeriod, int failedPingsToDown, DistroConfig distro,
    Duration peerWaitAtStart, int peerMaxCalls, Optional<TlsFiles> tlsFiles, Optional<Path> memberFile) {
  /** Pings, Distro batches and forwards of a 3-5 member cluster stay far below this. */
  public static final int DEFAULT_PEER_MAX_CALLS = 256;
  /** Nacos has no such wait; 10 s covers peers started by the same command on a busy machine. */
  public static final Duration DEFAULT_PEER_WAIT_AT_START = Duration.ofSeconds(10);

  @Override
  public String toString() {
    // Never log the secret.
    return "ClusterSettings[secret=" + (secret.isEmpty() ? "<none>" : "<set>") + ", pingPeriod=" + pingPeriod
        + ", failedPingsToDown=" + failedPingsToDown + ", peerWaitAtStart=" + peerWaitAtStart
        + ", peerMaxCalls=" + peerMaxCalls + ", distro=" + distro
        + tlsFiles.map(f -> ", tlsFiles=" + f).orElse("") + memberFile.map(f -> ", memberFile=" + f).orElse("")
        + "]";
  }
}
