package dev.nacre.consensus.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.nacre.consensus.tls.SecretDerivedTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.ratis.proto.RaftProtos.RequestVoteRequestProto;
import org.apache.ratis.proto.grpc.RaftServerProtocolServiceGrpc;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContextBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever does not hold the cluster secret is refused by the Raft port before Ratis sees a
 * request. Each refusal is checked against a control call with the member's own credentials
 * that does reach Ratis, so a test cannot pass because the call was wrong in some other way.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RaftPortRefusalTest {
  @TempDir Path dir;
  private TestCluster cluster;
  private int port;

  @BeforeEach
  void startSecuredMember() {
    cluster = TestCluster.started(dir, 1, b -> b.clusterSecret(AuthenticatedClusterTest.SECRET));
    port = cluster.log(0).config().selfPort();
  }

  @AfterEach
  void stop() {
    cluster.close();
  }

  @Test
  void aMemberOfTheSameSecretReachesRatis() throws Exception {
    SecretDerivedTls own = SecretDerivedTls.issue(AuthenticatedClusterTest.SECRET, "probe", "127.0.0.1");
    Status status = requestVote(tls(b -> b.trustManager(own.authority())
        .keyManager(own.memberKey(), own.memberCertificate())));
    assertThat(status.getCode()).as("%s", status).isNotEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void plaintextGrpcIsRefused() {
    Status status = requestVote(NettyChannelBuilder.forTarget("127.0.0.1:" + port).usePlaintext().build());
    assertThat(status.getCode()).as("%s", status).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void tlsWithoutAClientCertificateIsRefused() throws Exception {
    // The authority's certificate is not secret: knowing it must not be enough.
    SecretDerivedTls own = SecretDerivedTls.issue(AuthenticatedClusterTest.SECRET, "probe", "127.0.0.1");
    Status status = requestVote(tls(b -> b.trustManager(own.authority())));
    assertThat(status.getCode()).as("%s", status).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void certificateOfAnotherSecretIsRefused() throws Exception {
    SecretDerivedTls own = SecretDerivedTls.issue(AuthenticatedClusterTest.SECRET, "probe", "127.0.0.1");
    SecretDerivedTls stranger = SecretDerivedTls.issue("a different secret, same length", "probe", "127.0.0.1");
    Status status = requestVote(tls(b -> b.trustManager(own.authority())
        .keyManager(stranger.memberKey(), stranger.memberCertificate())));
    assertThat(status.getCode()).as("%s", status).isEqualTo(Status.Code.UNAVAILABLE);
  }

  @Test
  void rawTcpIsClosedWithoutAnAnswer() throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      // A TLS server answers a non-TLS record by closing; at most it sends a TLS alert, never HTTP/2.
      byte[] answer = in.readNBytes(64);
      assertThat(new String(answer, StandardCharsets.ISO_8859_1)).doesNotContain("HTTP");
      assertThat(answer.length).isLessThan(64);
    }
  }

  private ManagedChannel tls(UnaryOperator<SslContextBuilder> credentials) throws IOException {
    return NettyChannelBuilder.forTarget("127.0.0.1:" + port)
        .sslContext(credentials.apply(GrpcSslContexts.forClient()).build())
        .build();
  }

  private static Status requestVote(ManagedChannel channel) {
    try {
      StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
          () -> RaftServerProtocolServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
              .requestVote(RequestVoteRequestProto.getDefaultInstance()));
      return e == null ? Status.OK : e.getStatus();
    } finally {
      channel.shutdownNow();
    }
  }
}
