package dev.nacre.consensus.raft.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.grpc.GrpcUtil;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.thirdparty.io.grpc.CallOptions;
import org.apache.ratis.thirdparty.io.grpc.ConnectivityState;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.MethodDescriptor;
import org.apache.ratis.thirdparty.io.grpc.ServerServiceDefinition;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NegotiationType;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientCalls;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCalls;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContextBuilder;
import org.apache.ratis.util.CodeInjectionForTesting;

/**
 * The call that carries a batch from a member to the leader, served on the Raft port beside Ratis'
 * own services (same TLS, same handler threads): the request is {@link EntryCodec#encodeForward}'s
 * bytes, the reply {@link EntryCodec#encodeForwardReply}'s. {@link #service} is the leader's side;
 * an instance holds this member's channels to the others.
 */
public final class ForwardRpc implements LeaderForwards.Transport, AutoCloseable {
  /**
   * Where a test harness may cut or delay a forward on the leader, through Ratis'
   * {@link CodeInjectionForTesting} (local: this member's id; remote: the sender's
   * {@link RaftPeerId}). Nothing listens in production.
   */
  public static final String FORWARD_INJECTION_POINT = "nacre.ForwardRpc.forwardedBatch";

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

  static final MethodDescriptor<byte[], byte[]> FORWARD = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName(MethodDescriptor.generateFullMethodName("nacre.consensus.LeaderForward", "Forward"))
      .setRequestMarshaller(BYTES)
      .setResponseMarshaller(BYTES)
      .build();

  private final Function<String, String> addressOf;
  private final GrpcTlsConfig tls;
  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param addressOf a member's Raft address ({@code host:port}) by id, null for none; asked when
   *     this member first forwards to it, so it must know members added since the start
   * @param tls this member's Raft TLS, null for plaintext
   */
  public ForwardRpc(Function<String, String> addressOf, GrpcTlsConfig tls) {
    this.addressOf = addressOf;
    this.tls = tls;
  }

  /**
   * The leader's side: commits each batch it receives while it leads and answers once it applied
   * it; refuses at once when it does not lead, so that the sender tries the member it hears of next.
   */
  public static ServerServiceDefinition service(String selfId, BooleanSupplier leads,
      Function<List<TrackedOperation>, CompletableFuture<byte[]>> commit) {
    return ServerServiceDefinition.builder(FORWARD.getServiceName())
        .addMethod(FORWARD, ServerCalls.asyncUnaryCall((byte[] request, StreamObserver<byte[]> reply) -> {
          List<TrackedOperation> operations = EntryCodec.decodeForward(request).orElse(null);
          if (operations == null) {
            reply.onError(Status.INVALID_ARGUMENT.withDescription("unreadable forwarded batch of " + request.length
                + " bytes; do the members run different versions?").asRuntimeException());
            return;
          }
          CodeInjectionForTesting.execute(FORWARD_INJECTION_POINT, selfId, senderOf(operations));
          if (!leads.getAsBoolean()) {
            reply.onError(Status.FAILED_PRECONDITION.withDescription(selfId + " does not lead").asRuntimeException());
            return;
          }
          commit.apply(operations).whenComplete((answer, error) -> {
            if (error != null) {
              reply.onError(Status.UNAVAILABLE.withDescription(String.valueOf(error)).asRuntimeException());
            } else {
              reply.onNext(answer);
              reply.onCompleted();
            }
          });
        }))
        .build();
  }

  /** The Raft peer id of the member that forwarded {@code operations} (its origin is "peerId/run"). */
  private static RaftPeerId senderOf(List<TrackedOperation> operations) {
    String origin = operations.isEmpty() ? "" : operations.get(0).origin();
    int slash = origin.indexOf('/');
    return slash <= 0 ? null : RaftPeerId.valueOf(origin.substring(0, slash));
  }

  @Override
  public CompletableFuture<byte[]> send(String memberId, byte[] forward, long timeoutNanos) {
    CompletableFuture<byte[]> reply = new CompletableFuture<>();
    try {
      ManagedChannel channel = channel(memberId);
      if (channel.getState(false) != ConnectivityState.READY) {
        // gRPC waits out a reconnect backoff, which grows to minutes while a member is down, before
        // it connects again; the member named leader now is up, or another leader comes soon.
        channel.resetConnectBackoff();
      }
      // Waits for the connection instead of failing at once while it is being made; a new leader
      // gets the batch anyway (LeaderForwards), and the deadline bounds the wait.
      CallOptions options = CallOptions.DEFAULT.withWaitForReady()
          .withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS);
      ClientCalls.asyncUnaryCall(channel.newCall(FORWARD, options), forward, new StreamObserver<>() {
            @Override
            public void onNext(byte[] value) {
              reply.complete(value);
            }

            @Override
            public void onError(Throwable t) {
              reply.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
              if (!reply.isDone()) { // after every answer: only a close without one builds the error
                reply.completeExceptionally(
                    new IllegalStateException("the leader closed the forward without an answer"));
              }
            }
          });
    } catch (RuntimeException e) {
      reply.completeExceptionally(e);
    }
    return reply;
  }

  private ManagedChannel channel(String memberId) {
    if (closed) {
      throw new IllegalStateException("this member's forward channels are closed");
    }
    return channels.computeIfAbsent(memberId, this::open);
  }

  private ManagedChannel open(String memberId) {
    String address = addressOf.apply(memberId);
    if (address == null) {
      throw new IllegalArgumentException("no Raft address for member " + memberId + " in the group's configuration");
    }
    NettyChannelBuilder builder = NettyChannelBuilder.forTarget(address).directExecutor().disableRetry();
    if (tls == null) {
      return builder.negotiationType(NegotiationType.PLAINTEXT).build();
    }
    SslContextBuilder ssl = GrpcSslContexts.forClient();
    GrpcUtil.setTrustManager(ssl, tls.getTrustManager());
    if (tls.getMtlsEnabled()) {
      GrpcUtil.setKeyManager(ssl, tls.getKeyManager());
    }
    try {
      return builder.useTransportSecurity().sslContext(ssl.build()).build();
    } catch (SSLException e) {
      throw new IllegalStateException("cannot set up TLS to member " + memberId + " at " + address
          + "; check the Raft TLS settings", e);
    }
  }

  @Override
  public void close() {
    closed = true;
    channels.values().forEach(ManagedChannel::shutdownNow);
  }
}
