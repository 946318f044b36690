package dev.nacre.node.cluster.distro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.DistroSnapshot;
import dev.nacre.consensus.distro.SnapshotRequest;
import dev.nacre.node.cluster.LoopbackPorts;
import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.cluster.peer.PeerCallObserver;
import dev.nacre.node.cluster.peer.PeerChannels;
import dev.nacre.node.cluster.peer.PeerServer;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.proto.peer.PeerGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCallStreamObserver;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Distro snapshots between real peer ports on loopback: one larger than the 64 MiB message cap
 * arrives whole, in parts; a member that only knows the single-message call is still served.
 */
class SnapshotPartsTest {
  private static final String SECRET = "0123456789abcdef0123456789abcdef";
  private static final String SELF = "127.0.0.1:1001";

  private final List<AutoCloseable> open = new ArrayList<>();
  private final AtomicInteger partsSent = new AtomicInteger();

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void aSnapshotLargerThanOneMessageArrivesWholeInParts() throws Exception {
    DistroSnapshot served = snapshot(72_000, 1024); // about 75 MiB encoded
    String member = startPeer(servingParts(served));

    DistroSnapshot received = transport(member).requestSnapshot(member, new SnapshotRequest(SELF, SnapshotRequest.Scope.ALL))
        .get(60, TimeUnit.SECONDS);

    assertThat(received.sender()).isEqualTo(served.sender());
    assertThat(received.scope()).isEqualTo(SnapshotRequest.Scope.ALL);
    assertThat(received.highWaterRevision()).isEqualTo(served.highWaterRevision());
    assertThat(received.records()).hasSameSizeAs(served.records());
    assertThat(received.records()).isEqualTo(served.records());
    assertThat(partsSent.get()).as("parts of about 1 MiB").isBetween(60, 90);
  }

  @Test
  void partsCanBeHandedOverAsTheyArrive() throws Exception {
    DistroSnapshot served = snapshot(6_000, 1024); // about 6 parts
    String member = startPeer(servingParts(served));
    List<Integer> handedOver = new java.util.concurrent.CopyOnWriteArrayList<>();
    List<DistroRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();

    DistroSnapshot rest = transport(member).requestSnapshot(member, new SnapshotRequest(SELF, SnapshotRequest.Scope.ALL),
        part -> {
          handedOver.add(part.size());
          records.addAll(part);
        }).get(60, TimeUnit.SECONDS);

    assertThat(rest.records()).as("nothing left once every part was handed over").isEmpty();
    assertThat(rest.highWaterRevision()).isEqualTo(served.highWaterRevision());
    assertThat(handedOver).as("one hand-over per part").hasSize(partsSent.get()).hasSizeGreaterThan(1);
    assertThat(records).isEqualTo(served.records());
  }

  @Test
  void anEmptySnapshotIsOneEmptyPart() throws Exception {
    DistroSnapshot served = snapshot(0, 0);
    String member = startPeer(servingParts(served));
    DistroSnapshot received = transport(member).requestSnapshot(member, new SnapshotRequest(SELF, SnapshotRequest.Scope.OWNED))
        .get(10, TimeUnit.SECONDS);
    assertThat(received.records()).isEmpty();
    assertThat(received.sender()).isEqualTo(served.sender());
    assertThat(partsSent).hasValue(1);
  }

  @Test
  void aMemberThatOnlyKnowsTheSingleMessageCallIsAskedThatWay() throws Exception {
    DistroSnapshot served = snapshot(500, 100);
    AtomicInteger singleCalls = new AtomicInteger();
    String member = startPeer(new PeerGrpc.PeerImplBase() { // an older member: no SnapshotParts
      @Override
      public void snapshot(dev.nacre.proto.peer.SnapshotRequest request,
          StreamObserver<dev.nacre.proto.peer.DistroSnapshot> out) {
        singleCalls.incrementAndGet();
        out.onNext(DistroMessages.toProto(served));
        out.onCompleted();
      }
    });
    DistroSnapshot received = transport(member).requestSnapshot(member, new SnapshotRequest(SELF, SnapshotRequest.Scope.ALL))
        .get(10, TimeUnit.SECONDS);
    assertThat(received.records()).isEqualTo(served.records());
    assertThat(singleCalls).hasValue(1);
  }

  /** A peer that serves {@code served} in parts, counting them. */
  private PeerGrpc.PeerImplBase servingParts(DistroSnapshot served) {
    return new PeerGrpc.PeerImplBase() {
      @Override
      public void snapshotParts(dev.nacre.proto.peer.SnapshotRequest request,
          StreamObserver<dev.nacre.proto.peer.DistroSnapshot> out) {
        var counting = (ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot>) out;
        SnapshotParts.serve(CompletableFuture.completedFuture(served), new CountingObserver(counting, partsSent),
            SnapshotParts.PART_BYTES);
      }
    };
  }

  private static DistroSnapshot snapshot(int records, int valueBytes) {
    List<DistroRecord> list = new ArrayList<>(records);
    for (int i = 0; i < records; i++) {
      byte[] value = new byte[valueBytes];
      Arrays.fill(value, (byte) i);
      list.add(DistroRecord.live(String.format("ephemeral:key-%08d", i), "127.0.0.1:8848", i + 1L, value));
    }
    return new DistroSnapshot("127.0.0.1:8848", SnapshotRequest.Scope.ALL, records + 7L, list);
  }

  /** Starts a peer port serving {@code service}; returns the member address whose peer port it is. */
  private String startPeer(PeerGrpc.PeerImplBase service) throws IOException {
    int peerPort = LoopbackPorts.freeAbove(1001);
    String member = "127.0.0.1:" + (peerPort - 1001);
    PeerAuth auth = new PeerAuth(SECRET, Set.of(MemberAddress.parse(SELF), MemberAddress.parse(member)), MemberAddress.parse(member));
    open.add(PeerServer.start("test", new InetSocketAddress("127.0.0.1", peerPort), pool -> service, auth, List.of(), 8, PeerCallObserver.NONE));
    return member;
  }

  private GrpcDistroTransport transport(String member) {
    PeerChannels channels = new PeerChannels(MemberAddress.parse(SELF),
        new PeerAuth(SECRET, Set.of(MemberAddress.parse(SELF), MemberAddress.parse(member)), MemberAddress.parse(SELF)));
    open.add(channels);
    return new GrpcDistroTransport(channels, Duration.ofSeconds(3), Duration.ofSeconds(60));
  }


  /** Counts the parts a server call sends; everything else goes through as is. */
  private static final class CountingObserver extends ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot> {
    private final ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot> delegate;
    private final AtomicInteger parts;

    CountingObserver(ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot> delegate, AtomicInteger parts) {
      this.delegate = delegate;
      this.parts = parts;
    }

    @Override
    public void onNext(dev.nacre.proto.peer.DistroSnapshot value) {
      parts.incrementAndGet();
      delegate.onNext(value);
    }

    @Override
    public void onError(Throwable t) {
      delegate.onError(t);
    }

    @Override
    public void onCompleted() {
      delegate.onCompleted();
    }

    @Override
    public boolean isReady() {
      return delegate.isReady();
    }

    @Override
    public void setOnReadyHandler(Runnable handler) {
      delegate.setOnReadyHandler(handler);
    }

    @Override
    public void setOnCancelHandler(Runnable handler) {
      delegate.setOnCancelHandler(handler);
    }

    @Override
    public boolean isCancelled() {
      return delegate.isCancelled();
    }

    @Override
    public void disableAutoInboundFlowControl() {
      delegate.disableAutoInboundFlowControl();
    }

    @Override
    public void request(int count) {
      delegate.request(count);
    }

    @Override
    public void setMessageCompression(boolean enable) {
      delegate.setMessageCompression(enable);
    }

    @Override
    public void setCompression(String compression) {
      delegate.setCompression(compression);
    }
  }
}
