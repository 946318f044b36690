package dev.nacre.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.node.cluster.forward.OwnerWrites;
import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.cluster.peer.PeerCallObserver;
import dev.nacre.node.cluster.peer.PeerChannels;
import dev.nacre.node.cluster.peer.PeerServer;
import dev.nacre.node.config.MemberAddress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Owner writes between real peer ports on loopback: registrations, beats and deregistrations are
 * applied on the transport thread that read them (a deregistration's wait for the end of an
 * override is a future), while patches, which wait for a Raft commit, run on the peer port's pool,
 * as every call does when the fault harness filters links.
 */
class OwnerWriteThreadsTest {
  private static final String SECRET = "0123456789abcdef0123456789abcdef";
  private static final String SELF = "127.0.0.1:1001";
  private static final String POOL = "owner-peer-";
  private static final InstanceKey KEY = new InstanceKey(new ServiceKey("public", "DEFAULT_GROUP", "svc"),
      InstanceKey.DEFAULT_CLUSTER, "10.0.0.1", 8080);

  private final List<AutoCloseable> open = new ArrayList<>();
  /** The thread that applied each kind of write on the owner. */
  private final Map<String, String> appliedOn = new ConcurrentHashMap<>();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void writesRunWhereTheyArriveAndPatchesOnThePool() throws Exception {
    sendEveryKind(List.of());

    assertThat(appliedOn.get("register")).doesNotStartWith(POOL);
    assertThat(appliedOn.get("beat")).doesNotStartWith(POOL);
    assertThat(appliedOn.get("deregister")).doesNotStartWith(POOL);
    assertThat(appliedOn.get("patch")).startsWith(POOL);
  }

  @Test
  void withALinkFilterEveryWriteRunsOnThePool() throws Exception {
    ServerInterceptor passAll = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        return next.startCall(call, headers);
      }
    };
    sendEveryKind(List.of(passAll));

    assertThat(appliedOn).hasSize(4).allSatisfy((kind, thread) -> assertThat(thread).as(kind).startsWith(POOL));
  }

  /** Forwards one write of each kind from a member that is not responsible to one that is. */
  private void sendEveryKind(List<ServerInterceptor> linkFilter) throws IOException {
    int peerPort = LoopbackPorts.freeAbove(1001);
    String owner = "127.0.0.1:" + (peerPort - 1001);
    open.add(PeerServer.start("owner", new InetSocketAddress("127.0.0.1", peerPort),
        pool -> new PeerService(() -> null, from -> { }, null, recording(), pool),
        new PeerAuth(SECRET, Set.of(MemberAddress.parse(SELF), MemberAddress.parse(owner)), MemberAddress.parse(owner)), linkFilter, 8, PeerCallObserver.NONE));
    PeerChannels channels = new PeerChannels(MemberAddress.parse(SELF),
        new PeerAuth(SECRET, Set.of(MemberAddress.parse(SELF), MemberAddress.parse(owner)), MemberAddress.parse(SELF)));
    open.add(channels);
    EphemeralWrites notHere = failing();
    OwnerWrites writes = new OwnerWrites(SELF, channels, service -> owner, notHere, Duration.ofSeconds(5));

    Instance instance = new Instance(KEY, 1.0, true, true, true, Map.of());
    writes.registerAsync(instance).join();
    assertThat(writes.beatAsync(new Beat(KEY, Optional.empty())).join().found()).isTrue();
    writes.patch(KEY, new InstancePatch(Optional.of(2.0), Optional.empty(), Optional.empty(), Optional.empty()));
    writes.deregisterAsync(KEY).join();
  }

  /** The owner's registry: records where each write ran. */
  private EphemeralWrites recording() {
    return new EphemeralWrites() {
      @Override
      public CompletableFuture<Void> registerAsync(Instance instance) {
        appliedOn.put("register", Thread.currentThread().getName());
        return CompletableFuture.completedFuture(null);
      }

      @Override
      public CompletableFuture<Void> deregisterAsync(InstanceKey key) {
        appliedOn.put("deregister", Thread.currentThread().getName());
        return CompletableFuture.completedFuture(null);
      }

      @Override
      public void patch(InstanceKey key, InstancePatch patch) {
        appliedOn.put("patch", Thread.currentThread().getName());
      }

      @Override
      public CompletableFuture<BeatResult> beatAsync(Beat beat) {
        appliedOn.put("beat", Thread.currentThread().getName());
        return CompletableFuture.completedFuture(new BeatResult(true, 5000));
      }
    };
  }

  /** The sender's own registry: a write lands here only when the owner did not answer. */
  private static EphemeralWrites failing() {
    return new EphemeralWrites() {
      @Override
      public CompletableFuture<Void> registerAsync(Instance instance) {
        throw new AssertionError("register was applied by the sender");
      }

      @Override
      public CompletableFuture<Void> deregisterAsync(InstanceKey key) {
        throw new AssertionError("deregister was applied by the sender");
      }

      @Override
      public void patch(InstanceKey key, InstancePatch patch) {
        throw new AssertionError("patch was applied by the sender");
      }

      @Override
      public CompletableFuture<BeatResult> beatAsync(Beat beat) {
        throw new AssertionError("beat was applied by the sender");
      }
    };
  }
}
