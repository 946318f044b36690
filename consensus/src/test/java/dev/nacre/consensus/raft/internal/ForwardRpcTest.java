package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.ratis.thirdparty.io.grpc.Server;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The forward call over real gRPC on loopback, without Ratis behind it. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ForwardRpcTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private final AtomicBoolean leads = new AtomicBoolean(true);
  private final int port = freePort();
  private final ForwardRpc rpc = new ForwardRpc(Map.of("n1", "127.0.0.1:" + port)::get, null);
  private Server leader;

  @AfterEach
  void stop() {
    rpc.close();
    if (leader != null) {
      leader.shutdownNow();
    }
  }

  private void startLeader() throws IOException {
    leader = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(ForwardRpc.service("n1", leads::get,
            ops -> CompletableFuture.completedFuture(EntryCodec.encodeForwardReply(
                ops.stream().map(op -> ApplyResult.ok(op.operation())).toList(), 42))))
        .build().start();
  }

  private static byte[] forward(String operation) {
    return EntryCodec.encodeForward(List.of(
        new TrackedOperation(operation.getBytes(StandardCharsets.UTF_8), "n2/run", 1)));
  }

  @Test
  void theLeaderAnswersWithEachResultAndItsAppliedIndex() throws Exception {
    startLeader();
    byte[] reply = rpc.send("n1", forward("put a"), SECOND).get(5, TimeUnit.SECONDS);
    EntryCodec.Reply answer = EntryCodec.decodeReply(reply, 1);
    assertThat(answer.appliedIndex()).isEqualTo(42);
    assertThat(ApplyResult.decode(answer.results().get(0))).asString(StandardCharsets.UTF_8).isEqualTo("put a");
  }

  @Test
  void aMemberThatDoesNotLeadRefusesAtOnceAndUnreadableBytesAreRefused() throws Exception {
    startLeader();
    leads.set(false);
    assertThat(statusOf(rpc.send("n1", forward("put b"), SECOND))).isEqualTo(Status.Code.FAILED_PRECONDITION);
    leads.set(true);
    assertThat(statusOf(rpc.send("n1", new byte[] {9, 9}, SECOND))).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }

  /**
   * gRPC fails every call at once while a channel waits out its reconnect backoff (a second after
   * the first failed connect, growing to minutes); a leader that was down and is back must be
   * reachable at once.
   */
  @Test
  void aMemberThatWasDownIsReachedAsSoonAsItListens() throws Exception {
    assertThat(statusOf(rpc.send("n1", forward("put c"), SECOND / 5))).as("nobody listens yet: the call waits")
        .isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    startLeader();
    long start = System.nanoTime();
    byte[] reply = rpc.send("n1", forward("put c"), SECOND).get(5, TimeUnit.SECONDS);
    assertThat(EntryCodec.decodeReply(reply, 1).appliedIndex()).isEqualTo(42);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));
  }

  private static Status.Code statusOf(CompletableFuture<byte[]> call) throws Exception {
    try {
      call.get(5, TimeUnit.SECONDS);
      throw new AssertionError("the call succeeded");
    } catch (ExecutionException e) {
      return ((StatusRuntimeException) e.getCause()).getStatus().getCode();
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
