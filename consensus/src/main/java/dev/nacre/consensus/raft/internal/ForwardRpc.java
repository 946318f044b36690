package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.ForwardInterceptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.net.ssl.SSLException;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.grpc.GrpcUtil;
import org.apache.ratis.thirdparty.io.grpc.CallOptions;
import org.apache.ratis.thirdparty.io.grpc.ConnectivityState;
import org.apache.ratis.thirdparty.io.grpc.Drainable;
import org.apache.ratis.thirdparty.io.grpc.KnownLength;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.MethodDescriptor;
import org.apache.ratis.thirdparty.io.grpc.ServerServiceDefinition;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NegotiationType;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientCalls;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCallStreamObserver;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCalls;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContextBuilder;

/**
 * The calls that carry batches from a member to the leader, served on the Raft port beside Ratis'
 * own services (same TLS, same handler threads): a batch is {@link EntryCodec#encodeForward}'s
 * bytes, its answer {@link EntryCodec#encodeForwardReply}'s, and all of a member's batches to a
 * leader travel on one stream ({@link ForwardStream}). {@link #service} is the leader's side; an
 * instance holds this member's channels and streams to the others.
 */
public final class ForwardRpc implements LeaderForwards.Transport, AutoCloseable {
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new DrainableBytes(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        // gRPC's message streams know their length: one array of it, not an 8 KiB buffer copied
        // into a second array (2% of a leader's CPU under forwarded writes).
        if (stream instanceof KnownLength) {
          byte[] message = new byte[stream.available()];
          if (stream.readNBytes(message, 0, message.length) != message.length) {
            throw new IOException("the message ended before its stated length");
          }
          return message;
        }
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  /**
   * A message that gRPC writes in one piece: without {@link Drainable} it copies any stream through
   * an 8 KiB buffer allocated per message (1.5% of every member's CPU under forwarded writes).
   */
  private static final class DrainableBytes extends ByteArrayInputStream implements Drainable, KnownLength {
    DrainableBytes(byte[] value) {
      super(value);
    }

    @Override
    public synchronized int drainTo(OutputStream target) throws IOException {
      int length = count - pos;
      target.write(buf, pos, length);
      pos = count;
      return length;
    }
  }

  /** One call per batch: what members sent before {@link #FORWARDS}, still served for them. */
  static final MethodDescriptor<byte[], byte[]> FORWARD = method(MethodDescriptor.MethodType.UNARY, "Forward");

  /** All of a member's batches to a leader on one call ({@link ForwardStream}). */
  static final MethodDescriptor<byte[], byte[]> FORWARDS =
      method(MethodDescriptor.MethodType.BIDI_STREAMING, "Forwards");

  private static MethodDescriptor<byte[], byte[]> method(MethodDescriptor.MethodType type, String name) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName("nacre.consensus.LeaderForward", name))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  private final Function<String, String> addressOf;
  private final GrpcTlsConfig tls;
  private final BoundedCalls deadlines;
  private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
  private final Map<String, ForwardStream> streams = new ConcurrentHashMap<>();
  /** Leaders that do not know {@link #FORWARDS} (an older build): they get a call per batch. */
  private final Set<String> perBatchCalls = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * @param addressOf a member's Raft address ({@code host:port}) by id, null for none; asked when
   *     this member first forwards to it, so it must know members added since the start
   * @param tls this member's Raft TLS, null for plaintext
   * @param deadlines times out batches that a leader does not answer
   */
  public ForwardRpc(Function<String, String> addressOf, GrpcTlsConfig tls, BoundedCalls deadlines) {
    this.addressOf = addressOf;
    this.tls = tls;
    this.deadlines = deadlines;
  }

  /**
   * The leader's side: commits each batch it receives while it leads and answers once it applied
   * it; refuses at once when it does not lead, so that the sender tries the member it hears of next.
   * {@code interceptor} sees each batch first.
   */
  public static ServerServiceDefinition service(String selfId, BooleanSupplier leads,
      Function<List<TrackedOperation>, CompletableFuture<byte[]>> commit, ForwardInterceptor interceptor) {
    Leader leader = new Leader(selfId, leads, commit, interceptor);
    return ServerServiceDefinition.builder(FORWARD.getServiceName())
        .addMethod(FORWARD, ServerCalls.asyncUnaryCall((byte[] request, StreamObserver<byte[]> reply) ->
            leader.take(request, 0, answer -> {
              reply.onNext(answer);
              reply.onCompleted();
            }, refusal -> reply.onError(refusal.asRuntimeException()))))
        .addMethod(FORWARDS, ServerCalls.asyncBidiStreamingCall(leader::stream))
        .build();
  }

  /** The leader's handling of a batch, whichever call brought it. */
  private record Leader(String selfId, BooleanSupplier leads,
      Function<List<TrackedOperation>, CompletableFuture<byte[]>> commit, ForwardInterceptor interceptor) {
    /** Handles the batch that starts at {@code offset} of {@code request}. */
    void take(byte[] request, int offset, Consumer<byte[]> answer, Consumer<Status> refuse) {
      List<TrackedOperation> operations = EntryCodec.decodeForward(request, offset).orElse(null);
      if (operations == null) {
        refuse.accept(Status.INVALID_ARGUMENT.withDescription("unreadable forwarded batch of "
            + (request.length - offset) + " bytes; do the members run different versions?"));
        return;
      }
      interceptor.beforeBatch(selfId, senderOf(operations), operations.size());
      if (!leads.getAsBoolean()) {
        refuse.accept(Status.FAILED_PRECONDITION.withDescription(selfId + " does not lead"));
        return;
      }
      commit.apply(operations).whenComplete((reply, error) -> {
        if (error != null) {
          refuse.accept(Status.UNAVAILABLE.withDescription(String.valueOf(error)));
        } else {
          answer.accept(reply);
        }
      });
    }

    /** A sender's stream: each message a batch with its id, each answer sent back with that id. */
    StreamObserver<byte[]> stream(StreamObserver<byte[]> replies) {
      ServerCallStreamObserver<byte[]> out = (ServerCallStreamObserver<byte[]>) replies;
      out.setOnCancelHandler(() -> { }); // answers after the sender went away are dropped, not thrown
      Consumer<byte[]> send = message -> {
        synchronized (out) { // a call's answer side takes one message at a time
          out.onNext(message);
        }
      };
      return new StreamObserver<>() {
        @Override
        public void onNext(byte[] message) {
          if (message.length < Long.BYTES) {
            synchronized (out) {
              out.onError(Status.INVALID_ARGUMENT.withDescription("forward message of " + message.length
                  + " bytes has no id; do the members run different versions?").asRuntimeException());
            }
            return;
          }
          long id = ByteBuffer.wrap(message).getLong();
          try {
            take(message, Long.BYTES, answer -> send.accept(ForwardStream.answer(id, answer)),
                refusal -> send.accept(ForwardStream.refusal(id, refusal)));
          } catch (RuntimeException e) { // a ForwardInterceptor's refusal: this batch fails, the stream stays
            send.accept(ForwardStream.refusal(id, Status.UNAVAILABLE.withDescription(e.toString())));
          }
        }

        @Override
        public void onError(Throwable t) {
          // The sender went away; its batches still commit, and their answers are dropped.
        }

        @Override
        public void onCompleted() {
          synchronized (out) {
            out.onCompleted();
          }
        }
      };
    }
  }

  /** The Raft peer id of the member that forwarded {@code operations} (its origin is "peerId/run"). */
  private static Optional<String> senderOf(List<TrackedOperation> operations) {
    String origin = operations.isEmpty() ? "" : operations.get(0).origin();
    int slash = origin.indexOf('/');
    return slash <= 0 ? Optional.empty() : Optional.of(origin.substring(0, slash));
  }

  @Override
  public CompletableFuture<byte[]> send(String memberId, byte[] forward, long timeoutNanos) {
    try {
      ManagedChannel channel = channel(memberId);
      if (channel.getState(false) != ConnectivityState.READY) {
        // gRPC waits out a reconnect backoff, which grows to minutes while a member is down, before
        // it connects again; the member named leader now is up, or another leader comes soon.
        channel.resetConnectBackoff();
      }
      if (perBatchCalls.contains(memberId)) {
        return sendAlone(channel, forward, timeoutNanos);
      }
      ForwardStream stream = streams.get(memberId);
      return (stream == null || stream.endedWith() != null ? stream(memberId, channel) : stream)
          .send(forward, timeoutNanos);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The open stream to {@code memberId}, opened now if there is none; one at a time per member. */
  private synchronized ForwardStream stream(String memberId, ManagedChannel channel) {
    ForwardStream stream = streams.get(memberId);
    if (stream == null || stream.endedWith() != null) {
      stream = openStream(memberId, channel);
      streams.put(memberId, stream);
    }
    return stream;
  }

  private ForwardStream openStream(String memberId, ManagedChannel channel) {
    ForwardStream stream = new ForwardStream(deadlines, ended -> {
      streams.remove(memberId, ended);
      if (ended.endedWith().getCode() == Status.Code.UNIMPLEMENTED) {
        perBatchCalls.add(memberId);
      }
    });
    // Waits for the connection instead of failing at once while it is being made; each batch's
    // deadline bounds the wait, and a new leader gets the batch anyway (LeaderForwards).
    ClientCalls.asyncBidiStreamingCall(channel.newCall(FORWARDS, CallOptions.DEFAULT.withWaitForReady()), stream);
    return stream;
  }

  /** A batch on a call of its own, for a leader of an older build. */
  private static CompletableFuture<byte[]> sendAlone(ManagedChannel channel, byte[] forward, long timeoutNanos) {
    CompletableFuture<byte[]> reply = new CompletableFuture<>();
    CallOptions options = CallOptions.DEFAULT.withWaitForReady().withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS);
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
          reply.completeExceptionally(new IllegalStateException("the leader closed the forward without an answer"));
        }
      }
    });
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
    streams.values().forEach(ForwardStream::close);
    channels.values().forEach(ManagedChannel::shutdownNow);
  }
}
