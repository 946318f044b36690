package dev.nacre.consensus.raft.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientCallStreamObserver;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientResponseObserver;

/**
 * One member's forwards to one leader on a single long-lived call: each batch is a message with an
 * id, each answer a message with the same id. A unary call per batch cost a new HTTP/2 stream, its
 * headers both ways, trailers and a deadline header that the header compression never reuses: a
 * fifth of the leader's transport CPU under persistent load (docs/PERFORMANCE.md). The stream ends
 * with the connection or the leader's refusal of the call; every batch still waiting then fails,
 * and {@link LeaderForwards} sends it again (on a new stream).
 *
 * <p>Messages: a request is the id (8 bytes) and {@link EntryCodec#encodeForward}'s bytes; an answer
 * is the id, a status byte (0, or a gRPC status code) and then the encoded reply or the refusal's
 * description.
 */
final class ForwardStream implements ClientResponseObserver<byte[], byte[]> {
  private static final byte ANSWERED = 0;

  private final Map<Long, CompletableFuture<byte[]>> waiting = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final BoundedCalls deadlines;
  private final Consumer<ForwardStream> onEnd;
  private final AtomicReference<Status> ended = new AtomicReference<>();
  /** Messages held while the call cannot take them (connecting, or its buffer full); guarded by this. */
  private final ArrayDeque<Held> held = new ArrayDeque<>();
  private ClientCallStreamObserver<byte[]> requests;

  private record Held(long id, byte[] message) {}

  /** @param onEnd told once, when the stream ended and so must not be used again */
  ForwardStream(BoundedCalls deadlines, Consumer<ForwardStream> onEnd) {
    this.deadlines = deadlines;
    this.onEnd = onEnd;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<byte[]> requests) {
    this.requests = requests;
    requests.setOnReadyHandler(this::sendHeld);
  }

  /** How the stream ended; null while it is open. */
  Status endedWith() {
    return ended.get();
  }

  /** Sends one batch; completes with the leader's encoded reply, or fails with a {@link Status}. */
  CompletableFuture<byte[]> send(byte[] forward, long timeoutNanos) {
    long id = ids.incrementAndGet();
    CompletableFuture<byte[]> reply = new CompletableFuture<>();
    waiting.put(id, reply);
    ScheduledFuture<?> deadline = deadlines.deadline(
        () -> fail(id, Status.DEADLINE_EXCEEDED.withDescription("the leader did not answer the forward in time")),
        timeoutNanos);
    if (deadline == null) {
      fail(id, Status.CANCELLED.withDescription("this member's Raft calls are closed"));
      return reply;
    }
    reply.whenComplete((value, error) -> deadline.cancel(false));
    Status end = ended.get();
    if (end != null) { // ended before the batch was registered: the sweep in end() missed it
      fail(id, end);
      return reply;
    }
    byte[] message = ByteBuffer.allocate(Long.BYTES + forward.length).putLong(id).put(forward).array();
    synchronized (this) { // a call's request side takes one message at a time
      if (held.isEmpty() && requests.isReady()) {
        write(id, message);
      } else {
        // Held here, not in gRPC's buffer, so that a batch that timed out meanwhile is never sent:
        // else a leader that comes back commits it long after its writer heard that it failed.
        held.removeIf(h -> !waiting.containsKey(h.id()));
        held.add(new Held(id, message));
      }
    }
    return reply;
  }

  /** The call takes messages again: sends what it held, but no batch that has already failed. */
  private synchronized void sendHeld() {
    while (!held.isEmpty() && requests.isReady()) {
      Held h = held.poll();
      if (waiting.containsKey(h.id())) {
        write(h.id(), h.message());
      }
    }
  }

  private void write(long id, byte[] message) {
    try {
      requests.onNext(message);
    } catch (RuntimeException e) {
      fail(id, Status.UNAVAILABLE.withDescription("the forward stream is closed: " + e));
    }
  }

  /** An answer from the leader. */
  @Override
  public void onNext(byte[] message) {
    if (message.length < Long.BYTES + 1) {
      end(Status.INTERNAL.withDescription("unreadable answer of " + message.length
          + " bytes on the forward stream; do the members run different versions?"));
      return;
    }
    ByteBuffer in = ByteBuffer.wrap(message);
    CompletableFuture<byte[]> reply = waiting.remove(in.getLong());
    if (reply == null) {
      return; // timed out meanwhile
    }
    byte status = in.get();
    byte[] payload = Arrays.copyOfRange(message, in.position(), message.length);
    if (status == ANSWERED) {
      reply.complete(payload);
    } else {
      reply.completeExceptionally(Status.fromCodeValue(status)
          .withDescription(new String(payload, StandardCharsets.UTF_8)).asRuntimeException());
    }
  }

  @Override
  public void onError(Throwable t) {
    end(Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    end(Status.UNAVAILABLE.withDescription("the leader ended the forward stream"));
  }

  /** Ends the stream from this side; waiting batches fail. */
  void close() {
    synchronized (this) {
      requests.onError(Status.CANCELLED.withDescription("closing").asRuntimeException());
    }
    end(Status.CANCELLED.withDescription("this member's forward streams are closed"));
  }

  private void end(Status status) {
    if (!ended.compareAndSet(null, status)) {
      return;
    }
    synchronized (this) {
      held.clear();
    }
    onEnd.accept(this);
    for (Long id : waiting.keySet()) {
      fail(id, status);
    }
  }

  private void fail(long id, Status status) {
    CompletableFuture<byte[]> reply = waiting.remove(id);
    if (reply != null) {
      reply.completeExceptionally(status.asRuntimeException());
    }
  }

  /** An answer message: {@code id}, then 0 and {@code reply}. */
  static byte[] answer(long id, byte[] reply) {
    return ByteBuffer.allocate(Long.BYTES + 1 + reply.length).putLong(id).put(ANSWERED).put(reply).array();
  }

  /** A refusal message: {@code id}, then the status' code and description. */
  static byte[] refusal(long id, Status status) {
    byte[] description = String.valueOf(status.getDescription()).getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(Long.BYTES + 1 + description.length).putLong(id)
        .put((byte) status.getCode().value()).put(description).array();
  }
}
