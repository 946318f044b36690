package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.raft.ForwardInterceptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.ratis.thirdparty.io.grpc.Drainable;
import org.apache.ratis.thirdparty.io.grpc.KnownLength;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.Server;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptors;
import org.apache.ratis.thirdparty.io.grpc.ServerServiceDefinition;
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
  private final BoundedCalls calls = new BoundedCalls("n2");
  private final ForwardRpc rpc = new ForwardRpc(Map.of("n1", "127.0.0.1:" + port)::get, null, calls);
  private Server leader;

  @AfterEach
  void stop() {
    rpc.close();
    calls.close(() -> new IllegalStateException("closed"));
    if (leader != null) {
      leader.shutdownNow();
    }
  }

  private void startLeader() throws IOException {
    startLeader(ops -> CompletableFuture.completedFuture(allOk(ops, 42)), new AtomicInteger());
  }

  /** A leader that commits with {@code commit} and counts the calls it is sent. */
  private void startLeader(Function<List<TrackedOperation>, CompletableFuture<byte[]>> commit, AtomicInteger callsSeen)
      throws IOException {
    ServerInterceptor counting = new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
          ServerCallHandler<Q, A> next) {
        callsSeen.incrementAndGet();
        return next.startCall(call, headers);
      }
    };
    leader = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(ServerInterceptors.intercept(ForwardRpc.service("n1", leads::get, commit, ForwardInterceptor.NONE), counting))
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

  /** gRPC writes a message that is {@link Drainable} in one piece; any other stream through a copy buffer. */
  @Test
  void aMessageIsWrittenInOnePieceOfItsLength() throws IOException {
    byte[] message = forward("put d");
    InputStream stream = ForwardRpc.FORWARDS.streamRequest(message);
    assertThat(stream).isInstanceOf(Drainable.class).isInstanceOf(KnownLength.class);
    assertThat(stream.available()).isEqualTo(message.length);
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    assertThat(((Drainable) stream).drainTo(written)).isEqualTo(message.length);
    assertThat(written.toByteArray()).isEqualTo(message);
    assertThat(stream.available()).isZero();
    assertThat(ForwardRpc.FORWARDS.parseRequest(new ByteArrayInputStream(message))).isEqualTo(message);
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

  /** Many batches in flight share one call, and each answer reaches its own batch, in any order. */
  @Test
  void batchesInFlightShareOneCallAndEachGetsItsOwnAnswer() throws Exception {
    int batches = 40;
    Deque<Map.Entry<CompletableFuture<byte[]>, List<TrackedOperation>>> commits = new ConcurrentLinkedDeque<>();
    AtomicInteger callsSeen = new AtomicInteger();
    startLeader(ops -> {
      CompletableFuture<byte[]> commit = new CompletableFuture<>();
      commits.add(Map.entry(commit, ops));
      return commit;
    }, callsSeen);
    List<CompletableFuture<byte[]>> replies = new ArrayList<>();
    for (int i = 0; i < batches; i++) {
      replies.add(rpc.send("n1", forward("put " + i), 5 * SECOND));
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> commits.size() == batches);
    for (Map.Entry<CompletableFuture<byte[]>, List<TrackedOperation>> c; (c = commits.pollLast()) != null; ) {
      c.getKey().complete(allOk(c.getValue(), 7)); // last sent, first answered
    }
    for (int i = 0; i < batches; i++) {
      byte[] reply = replies.get(i).get(5, TimeUnit.SECONDS);
      assertThat(ApplyResult.decode(EntryCodec.decodeReply(reply, 1).results().get(0)))
          .asString(StandardCharsets.UTF_8).isEqualTo("put " + i);
    }
    assertThat(callsSeen.get()).as("calls the leader saw for %d batches", batches).isEqualTo(1);
    await().atMost(Duration.ofSeconds(5)).until(() -> calls.pendingDeadlines() == 0);
  }

  /** A leader that never answers: the batch fails at its deadline, and the call stays usable. */
  @Test
  void aBatchTheLeaderDoesNotAnswerFailsAtItsDeadline() throws Exception {
    AtomicBoolean answer = new AtomicBoolean(false);
    startLeader(ops -> answer.get() ? CompletableFuture.completedFuture(allOk(ops, 9)) : new CompletableFuture<>(),
        new AtomicInteger());
    long start = System.nanoTime();
    assertThat(statusOf(rpc.send("n1", forward("put d"), SECOND / 2))).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(450), Duration.ofSeconds(3));
    answer.set(true);
    byte[] reply = rpc.send("n1", forward("put e"), SECOND).get(5, TimeUnit.SECONDS);
    assertThat(EntryCodec.decodeReply(reply, 1).appliedIndex()).isEqualTo(9);
  }

  /** The leader goes away with a batch unanswered: it fails at once, not at its deadline. */
  @Test
  void aLeaderThatGoesAwayFailsItsWaitingBatchesAtOnce() throws Exception {
    startLeader(ops -> new CompletableFuture<>(), new AtomicInteger());
    CompletableFuture<byte[]> waiting = rpc.send("n1", forward("put f"), 20 * SECOND);
    await().atMost(Duration.ofSeconds(5)).until(() -> calls.pendingDeadlines() == 1);
    long start = System.nanoTime();
    leader.shutdownNow();
    assertThat(statusOf(waiting)).as("the stream's end, not the deadline").isIn(Status.Code.UNAVAILABLE, Status.Code.CANCELLED);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    startLeader();
    byte[] reply = rpc.send("n1", forward("put g"), 5 * SECOND).get(10, TimeUnit.SECONDS);
    assertThat(EntryCodec.decodeReply(reply, 1).appliedIndex()).isEqualTo(42);
  }

  /**
   * A batch that failed while the leader could not be reached is never sent: its writer was told it
   * failed, and may have written something else since.
   */
  @Test
  void aBatchThatFailedBeforeTheLeaderListenedNeverReachesIt() throws Exception {
    assertThat(statusOf(rpc.send("n1", forward("put stale"), SECOND / 5))).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    List<String> committed = new CopyOnWriteArrayList<>();
    startLeader(ops -> {
      ops.forEach(op -> committed.add(new String(op.operation(), StandardCharsets.UTF_8)));
      return CompletableFuture.completedFuture(allOk(ops, 3));
    }, new AtomicInteger());
    rpc.send("n1", forward("put fresh"), SECOND).get(5, TimeUnit.SECONDS);
    assertThat(committed).containsExactly("put fresh");
  }

  /** A leader of the build before the stream knows only a call per batch: members fall back to it. */
  @Test
  void aLeaderWithoutTheStreamGetsACallPerBatch() throws Exception {
    ServerServiceDefinition both =
        ForwardRpc.service("n1", leads::get, ops -> CompletableFuture.completedFuture(allOk(ops, 5)),
            ForwardInterceptor.NONE);
    leader = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
        .addService(ServerServiceDefinition.builder(ForwardRpc.FORWARD.getServiceName())
            .addMethod(both.getMethod(ForwardRpc.FORWARD.getFullMethodName())).build())
        .build().start();
    assertThat(statusOf(rpc.send("n1", forward("put h"), SECOND))).isEqualTo(Status.Code.UNIMPLEMENTED);
    byte[] reply = rpc.send("n1", forward("put i"), SECOND).get(5, TimeUnit.SECONDS);
    assertThat(EntryCodec.decodeReply(reply, 1).appliedIndex()).isEqualTo(5);
  }

  /** The leader's answer that applies every operation of a batch, at {@code appliedIndex}. */
  private static byte[] allOk(List<TrackedOperation> operations, long appliedIndex) {
    return EntryCodec.encodeForwardReply(operations.stream().map(op -> ApplyResult.ok(op.operation())).toList(),
        appliedIndex);
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
