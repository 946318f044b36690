package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.node.cluster.PeerAuth;
import dev.nacre.proto.peer.ForwardRequest;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The peer port answers members holding the cluster secret and nobody else. */
@Timeout(120)
class PeerAuthenticationTest {
  @TempDir Path dir;

  private static Status.Code callWith(int peerPort, io.grpc.ClientInterceptor... interceptors) {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", peerPort).usePlaintext().intercept(interceptors).build();
    try {
      PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .forward(ForwardRequest.newBuilder().setMethod("POST").setPath("/nacos/v1/ns/instance").build());
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void callsWithoutTheSecretAreRefused() {
    try (LocalCluster c = LocalCluster.start(dir, 2, Map.of())) {
      int peerPort = c.node(0).config().port() + 1001;
      Set<String> members = Set.of(c.address(0), c.address(1));
      assertThat(callWith(peerPort)).as("no credentials").isEqualTo(Status.Code.UNAUTHENTICATED);
      PeerAuth wrong = new PeerAuth("not-the-cluster-secret-at-all", members);
      assertThat(callWith(peerPort, wrong.client(c.address(1)))).as("wrong secret").isEqualTo(Status.Code.UNAUTHENTICATED);
      PeerAuth right = new PeerAuth(c.config(0).cluster().secret(), Set.of(c.address(0), c.address(1), "127.0.0.1:1"));
      assertThat(callWith(peerPort, right.client("127.0.0.1:1"))).as("secret but not a member").isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(callWith(peerPort, right.client(c.address(1)))).as("a member").isEqualTo(Status.Code.OK);

      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", peerPort).usePlaintext().build();
      try {
        assertThatThrownBy(() -> PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
            .ping(PingRequest.newBuilder().setFrom(c.address(1)).build()))
            .isInstanceOf(StatusRuntimeException.class)
            .hasMessageContaining("cluster");
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
