package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.node.http.HttpGate;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.ratis.thirdparty.io.grpc.CallOptions;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.MethodDescriptor;
import org.apache.ratis.thirdparty.io.grpc.Server;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptors;
import org.apache.ratis.thirdparty.io.grpc.ServerServiceDefinition;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientCalls;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client-traffic gate on a real gRPC server on loopback: pass, drop, hold, lost answer. */
@Timeout(30)
class ClientGateInterceptorTest {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };
  private static final MethodDescriptor<byte[], byte[]> ECHO = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Gate/Echo")
      .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

  private final ConcurrentLinkedDeque<HttpGate.Decision> script = new ConcurrentLinkedDeque<>();
  private final AtomicInteger handled = new AtomicInteger();
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    ClientGate gate = node -> {
      assertThat(node).isEqualTo("127.0.0.1:1");
      HttpGate.Decision d = script.poll();
      return d == null ? HttpGate.Decision.PASS : d;
    };
    ServerServiceDefinition echo = ServerServiceDefinition.builder("test.Gate")
        .addMethod(ECHO, ServerCalls.asyncUnaryCall((request, answer) -> {
          handled.incrementAndGet();
          answer.onNext(request);
          answer.onCompleted();
        })).build();
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(echo, new ClientGateInterceptor("127.0.0.1:1", gate)))
        .build().start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private byte[] call() {
    return ClientCalls.blockingUnaryCall(channel.newCall(ECHO, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS)),
        new byte[] {42});
  }

  @Test
  void passesByDefault() {
    assertThat(call()).containsExactly(42);
    assertThat(handled).hasValue(1);
  }

  @Test
  void aDroppedCallIsUnavailableAndNeverHandled() {
    script.add(HttpGate.Decision.RESET);
    assertThatThrownBy(this::call).isInstanceOfSatisfying(StatusRuntimeException.class,
        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(handled).hasValue(0);
  }

  @Test
  void aDroppedAnswerIsUnavailableThoughTheCallWasHandled() {
    script.add(HttpGate.Decision.PASS);
    script.add(HttpGate.Decision.PASS);
    script.add(HttpGate.Decision.RESET);
    assertThatThrownBy(this::call).isInstanceOfSatisfying(StatusRuntimeException.class,
        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(handled).hasValue(1);
  }

  @Test
  void aHeldCallIsHandledAfterTheHold() {
    script.add(HttpGate.Decision.hold(Duration.ofMillis(600)));
    long t0 = System.nanoTime();
    assertThat(call()).containsExactly(42);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
  }
}
