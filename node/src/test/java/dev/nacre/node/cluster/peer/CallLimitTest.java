package dev.nacre.node.cluster.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.nacre.proto.peer.OwnerWrite;
import dev.nacre.proto.peer.OwnerWriteResult;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import dev.nacre.proto.peer.PingResponse;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.ListenableFuture;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.Server;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptors;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The peer port's call limit over real gRPC on loopback: refuses beyond the limit, frees on close. */
class CallLimitTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger started = new AtomicInteger();
  private final CallLimit limit = new CallLimit(2, "peer port of test",
      Set.of(PeerGrpc.getPingMethod().getFullMethodName()));
  private final ExecutorService holders = Executors.newCachedThreadPool();
  private Server server;
  private ManagedChannel channel;

  /** Write holds its call until {@link #release} opens; Ping answers at once. */
  private final PeerGrpc.PeerImplBase service = new PeerGrpc.PeerImplBase() {
    @Override
    public void write(OwnerWrite request, StreamObserver<OwnerWriteResult> response) {
      started.incrementAndGet();
      holders.execute(() -> {
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        try {
          response.onNext(OwnerWriteResult.getDefaultInstance());
          response.onCompleted();
        } catch (StatusRuntimeException cancelled) {
          // the caller gave up first (the cancellation test)
        }
      });
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingResponse> response) {
      response.onNext(PingResponse.newBuilder().setMember("me").build());
      response.onCompleted();
    }
  };

  @AfterEach
  void close() throws InterruptedException {
    release.countDown();
    holders.shutdownNow();
    if (channel != null) {
      channel.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCallBeyondTheLimitIsRefusedWithResourceExhaustedAndPingsStillAnswer() throws Exception {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(service, limit)).build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    PeerGrpc.PeerFutureStub async = PeerGrpc.newFutureStub(channel);
    PeerGrpc.PeerBlockingStub blocking = PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS);

    List<ListenableFuture<OwnerWriteResult>> held = new ArrayList<>();
    held.add(async.write(OwnerWrite.getDefaultInstance()));
    held.add(async.write(OwnerWrite.getDefaultInstance()));
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
        assertThat(started).as("both calls reached the handler").hasValue(2));

    assertThatThrownBy(() -> blocking.write(OwnerWrite.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
          assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
          assertThat(e.getStatus().getDescription()).contains("2 calls in flight").contains("retry later");
        });
    assertThat(limit.refused()).isEqualTo(1);
    assertThat(started).as("the refused call never reached the handler").hasValue(2);
    assertThat(blocking.ping(PingRequest.getDefaultInstance()).getMember()).isEqualTo("me");

    release.countDown();
    for (var f : held) {
      assertThat(f.get(5, TimeUnit.SECONDS).getErrorKind()).isEmpty();
    }
    // Closed calls gave their permits back: two more fit again.
    assertThat(blocking.write(OwnerWrite.getDefaultInstance()).getErrorKind()).isEmpty();
    assertThat(blocking.write(OwnerWrite.getDefaultInstance()).getErrorKind()).isEmpty();
    assertThat(limit.refused()).isEqualTo(1);
  }

  @Test
  void aCancelledCallGivesItsPermitBack() throws Exception {
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(service, limit)).build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
    PeerGrpc.PeerFutureStub async = PeerGrpc.newFutureStub(channel);
    for (int round = 0; round < 3; round++) {
      var a = async.withDeadlineAfter(200, TimeUnit.MILLISECONDS).write(OwnerWrite.getDefaultInstance());
      var b = async.withDeadlineAfter(200, TimeUnit.MILLISECONDS).write(OwnerWrite.getDefaultInstance());
      for (var f : List.of(a, b)) {
        assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
            .hasCauseInstanceOf(StatusRuntimeException.class)
            .hasMessageContaining("DEADLINE_EXCEEDED");
      }
      // The server sees the cancellations a moment after the client gave up.
      int r = round;
      await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
          assertThat(limit.inFlight()).as("round %d: permits back after the deadlines", r).isZero());
    }
    assertThat(limit.refused()).isZero();
  }
}
