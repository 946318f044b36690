package dev.nacre.node.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.proto.nacos.BiRequestStreamGrpc;
import dev.nacre.proto.nacos.Metadata;
import dev.nacre.proto.nacos.Payload;
import dev.nacre.proto.nacos.RequestGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.com.google.protobuf.Any;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;

/**
 * A hand-built Nacos 2.x client on the generated stubs: sends raw payloads (any type, any body)
 * to the client gRPC port, and records what the server sends on the stream. For protocol tests.
 */
public final class RawNacosClient implements AutoCloseable {
  public static final ObjectMapper MAPPER = new ObjectMapper();

  private final ManagedChannel channel;
  private final RequestGrpc.RequestBlockingStub unary;
  private final BlockingQueue<Payload> fromServer = new LinkedBlockingQueue<>();
  private volatile StreamObserver<Payload> stream;
  private volatile boolean answerServer = true;

  public RawNacosClient(int grpcPort) {
    channel = NettyChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
    unary = RequestGrpc.newBlockingStub(channel);
  }

  public static Payload payload(String type, String json) {
    return Payload.newBuilder()
        .setMetadata(Metadata.newBuilder().setType(type).setClientIp("127.0.0.1"))
        .setBody(Any.newBuilder().setValue(ByteString.copyFromUtf8(json)))
        .build();
  }

  public static JsonNode body(Payload p) {
    try {
      return MAPPER.readTree(p.getBody().getValue().toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One unary call; returns the reply's type and body as {@code {"type":..,"body":..}}. */
  public Reply call(String type, String json) {
    Payload reply = unary.withDeadlineAfter(10, TimeUnit.SECONDS).request(payload(type, json));
    return new Reply(reply.getMetadata().getType(), body(reply));
  }

  public record Reply(String type, JsonNode body) {
    public int errorCode() {
      return body.path("errorCode").asInt();
    }

    public int resultCode() {
      return body.path("resultCode").asInt();
    }
  }

  /** Opens the stream and sends the setup the 2.5.1 client sends. */
  public void setUp() {
    openStream();
    stream.onNext(payload("ConnectionSetupRequest",
        "{\"clientVersion\":\"Nacos-Java-Client:v2.5.1\",\"labels\":{\"source\":\"sdk\",\"module\":\"naming\"},"
            + "\"abilityTable\":{},\"module\":\"internal\",\"headers\":{}}"));
  }

  public void openStream() {
    stream = BiRequestStreamGrpc.newStub(channel).requestBiStream(new StreamObserver<>() {
      @Override
      public void onNext(Payload p) {
        fromServer.add(p);
        JsonNode b = body(p);
        String type = p.getMetadata().getType();
        if (answerServer && b.has("requestId") && type.endsWith("Request") && !type.equals("SetupAckRequest")) {
          ObjectNode ack = MAPPER.createObjectNode();
          ack.put("resultCode", 200);
          ack.put("errorCode", 0);
          ack.put("requestId", b.get("requestId").asText());
          sendOnStream(type.replace("Request", "Response"), ack.toString());
        }
      }

      @Override
      public void onError(Throwable t) {
        fromServer.add(payload("StreamError", "{\"message\":\"" + t.getClass().getSimpleName() + "\"}"));
      }

      @Override
      public void onCompleted() {
        fromServer.add(payload("StreamCompleted", "{}"));
      }
    });
  }

  public synchronized void sendOnStream(String type, String json) {
    stream.onNext(payload(type, json));
  }

  /** Whether server requests on the stream get answered (a frozen client does not). */
  public void answerServerRequests(boolean answer) {
    answerServer = answer;
  }

  /** The next message the server sent on the stream of the given type, within {@code wait}. */
  public Payload next(String type, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      Payload p = fromServer.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
      if (p == null) {
        throw new AssertionError("no " + type + " from the server within " + wait.toMillis() + " ms");
      }
      if (p.getMetadata().getType().equals(type)) {
        return p;
      }
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
