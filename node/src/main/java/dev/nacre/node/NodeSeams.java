package dev.nacre.node;

import dev.nacre.consensus.raft.RaftConfig;
import dev.nacre.node.http.HttpGate;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;

/**
 * What a program that embeds a node may put into it besides its {@code NodeConfig}: the executor
 * of its timers, interceptors on its gRPC ports, a gate on its HTTP port and adjustments of its
 * Raft settings, for auditing, metrics, traffic control or fault injection. {@link #defaults()},
 * what {@link Node#start(dev.nacre.node.config.NodeConfig)} uses, adds nothing.
 *
 * @param timers makes the node's timer executor, given the node's member address: pings, Distro
 *     verify, heartbeat expiry, probes and other periodic work run there. The node shuts it down
 *     when it closes. By default {@link #timerPool}
 * @param peerInterceptors run on every call arriving on the peer port (port + 1001) once it passed
 *     authentication, in this order; with any, every peer call runs on the port's handler pool
 *     (see {@code PeerServer#start}). None by default
 * @param clientInterceptors run first on every call arriving on the Nacos client port (port +
 *     1000), in this order, on its transport threads (see {@code ClientGrpcServer#start}). None
 *     by default
 * @param httpGate asked about every request and answer of the HTTP port; {@link HttpGate#OPEN} by
 *     default
 * @param raft adjusts the Raft settings that the node derived from its configuration (a
 *     {@link dev.nacre.consensus.raft.ForwardInterceptor}, where handlers run), just before they
 *     are built and validated; unchanged by default
 */
public record NodeSeams(
    Function<String, ScheduledExecutorService> timers,
    List<ServerInterceptor> peerInterceptors,
    List<ServerInterceptor> clientInterceptors,
    HttpGate httpGate,
    UnaryOperator<RaftConfig.Builder> raft) {

  /** Timer threads per node. */
  public static final int TIMER_THREADS = 2;

  public NodeSeams {
    Objects.requireNonNull(timers, "timers");
    peerInterceptors = List.copyOf(peerInterceptors);
    clientInterceptors = List.copyOf(clientInterceptors);
    Objects.requireNonNull(httpGate, "httpGate");
    Objects.requireNonNull(raft, "raft");
  }

  /** Nothing added: the node as its configuration alone makes it. */
  public static NodeSeams defaults() {
    return new NodeSeams(NodeSeams::timerPool, List.of(), List.of(), HttpGate.OPEN, UnaryOperator.identity());
  }

  /**
   * The default timer executor: {@value #TIMER_THREADS} daemon threads named
   * {@code <node>-timer}.
   */
  public static ScheduledExecutorService timerPool(String node) {
    return new ScheduledThreadPoolExecutor(TIMER_THREADS, r -> {
      Thread t = new Thread(r, node + "-timer");
      t.setDaemon(true);
      return t;
    });
  }

  public NodeSeams withTimers(Function<String, ScheduledExecutorService> timers) {
    return new NodeSeams(timers, peerInterceptors, clientInterceptors, httpGate, raft);
  }

  public NodeSeams withPeerInterceptors(List<ServerInterceptor> interceptors) {
    return new NodeSeams(timers, interceptors, clientInterceptors, httpGate, raft);
  }

  public NodeSeams withClientInterceptors(List<ServerInterceptor> interceptors) {
    return new NodeSeams(timers, peerInterceptors, interceptors, httpGate, raft);
  }

  public NodeSeams withHttpGate(HttpGate gate) {
    return new NodeSeams(timers, peerInterceptors, clientInterceptors, gate, raft);
  }

  public NodeSeams withRaft(UnaryOperator<RaftConfig.Builder> raft) {
    return new NodeSeams(timers, peerInterceptors, clientInterceptors, httpGate, raft);
  }
}
