package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The link filter on the peer port acts on the verified sender only, after authentication. */
@Timeout(60)
class PeerLinkFilterTest {
  @TempDir Path dir;

  private static Status ping(int peerPort, String from, PeerAuth auth) {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", peerPort)
        .sslContext(auth.clientTls()).intercept(auth.client()).build();
    try {
      PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS).ping(PingRequest.newBuilder().setFrom(from).build());
      return Status.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus();
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void cutLinksAnswerUnavailableAndUnauthenticatedCallsAreStillRefusedFirst() {
    try (LocalCluster c = LocalCluster.start(dir, 2, Map.of())) {
      int peerPort = c.node(0).config().port() + 1001;
      String secret = c.config(0).cluster().secret();
      PeerAuth member = new PeerAuth(secret, Set.of(c.member(0), c.member(1)), c.member(1));
      PeerAuth notListed = new PeerAuth(secret, Set.of(c.member(0), MemberAddress.parse("127.0.0.1:1001")), MemberAddress.parse("127.0.0.1:1001"));
      c.faults().cutOneWay(c.address(1), c.address(0));

      Status cut = ping(peerPort, c.address(1), member);
      assertThat(cut.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(cut.getDescription()).contains("link cut by fault injection");
      assertThat(ping(peerPort, c.address(1), notListed).getCode()).as("not a member").isEqualTo(Status.Code.UNAUTHENTICATED);

      c.faults().heal(c.address(1), c.address(0));
      assertThat(ping(peerPort, c.address(1), member).getCode()).isEqualTo(Status.Code.OK);
    }
  }
}
