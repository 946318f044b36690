package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.tls.SecretDerivedTls;
import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.proto.peer.OwnerWrite;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.ratis.thirdparty.io.grpc.ClientInterceptor;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.grpc.stub.MetadataUtils;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer port speaks mutual TLS with certificates of this cluster's secret and answers only
 * listed members: nothing captured from an earlier call, and no caller without a certificate of
 * this cluster, reaches a handler.
 */
@Timeout(120)
class PeerAuthenticationTest {
  @TempDir Path dir;

  private static Status.Code write(int peerPort, Optional<SslContext> tls, ClientInterceptor... interceptors) {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress("127.0.0.1", peerPort).intercept(interceptors);
    tls.ifPresentOrElse(builder::sslContext, builder::usePlaintext);
    ManagedChannel channel = builder.build();
    try {
      PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .write(OwnerWrite.getDefaultInstance());
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } finally {
      channel.shutdownNow();
    }
  }

  /** The headers a member sent on every peer call before the port had TLS: its id and an HMAC of it. */
  private static ClientInterceptor capturedOldStyleProof(String secret, String member) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("nacre-member", Metadata.ASCII_STRING_MARSHALLER), member);
    headers.put(Metadata.Key.of("nacre-proof", Metadata.ASCII_STRING_MARSHALLER),
        HexFormat.of().formatHex(mac.doFinal(member.getBytes(StandardCharsets.UTF_8))));
    return MetadataUtils.newAttachHeadersInterceptor(headers);
  }

  @Test
  void onlyMembersWithACertificateOfTheClusterSecretAreAnswered() throws Exception {
    try (LocalCluster c = LocalCluster.start(dir, 2, Map.of())) {
      int peerPort = c.node(0).config().port() + 1001;
      String secret = c.config(0).cluster().secret();
      Set<MemberAddress> members = Set.of(c.member(0), c.member(1));
      PeerAuth member = new PeerAuth(secret, members, c.member(1));

      assertThat(write(peerPort, Optional.empty(), capturedOldStyleProof(secret, c.address(1))))
          .as("a replayed request of a member, in plaintext").isEqualTo(Status.Code.UNAVAILABLE);
      SslContext noCertificate = GrpcSslContexts.forClient()
          .trustManager(SecretDerivedTls.issue(secret, "probe", "127.0.0.1").authority()).build();
      assertThat(write(peerPort, Optional.of(noCertificate), member.client()))
          .as("TLS without a client certificate").isEqualTo(Status.Code.UNAVAILABLE);
      PeerAuth stranger = new PeerAuth("not-the-cluster-secret-at-all", members, c.member(1));
      assertThat(write(peerPort, Optional.of(stranger.clientTls()), stranger.client()))
          .as("a certificate of another secret").isEqualTo(Status.Code.UNAVAILABLE);
      PeerAuth notListed = new PeerAuth(secret, Set.of(c.member(0), MemberAddress.parse("127.0.0.1:1001")), MemberAddress.parse("127.0.0.1:1001"));
      assertThat(write(peerPort, Optional.of(notListed.clientTls()), notListed.client()))
          .as("the secret, but not a member").isEqualTo(Status.Code.UNAUTHENTICATED);
      PeerAuth otherMember = new PeerAuth(secret, members, c.member(0));
      assertThat(write(peerPort, Optional.of(member.clientTls()), otherMember.client()))
          .as("a member's certificate, another member's name").isEqualTo(Status.Code.UNAUTHENTICATED);
      assertThat(write(peerPort, Optional.of(member.clientTls()), member.client()))
          .as("a member").isEqualTo(Status.Code.OK);
    }
  }

  @Test
  void aPlaintextPingIsRefusedBeforeItIsRead() {
    try (LocalCluster c = LocalCluster.start(dir, 2, Map.of())) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", c.node(0).config().port() + 1001)
          .usePlaintext().build();
      try {
        PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
            .ping(PingRequest.newBuilder().setFrom(c.address(1)).build());
        throw new AssertionError("a plaintext ping was answered");
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
