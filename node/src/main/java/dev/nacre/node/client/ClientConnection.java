package dev.nacre.node.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.util.concurrent.RateLimiter;
import dev.nacre.proto.nacos.Payload;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;

/**
 * One Nacos client connection: one TCP transport to the client gRPC port. It is registered once
 * the client sent its {@code ConnectionSetupRequest} on the bidirectional stream; the node then
 * sends requests down that stream and matches the client's responses by request id.
 *
 * <p>Thread-safe: sends are serialized (a gRPC stream takes one message at a time).
 */
public final class ClientConnection {
  enum State { NEW, REGISTERED, CLOSED }

  private final String id;
  private final String remoteIp;
  private final int remotePort;
  private final PayloadCodec codec;
  private final RateLimiter writes; // null: no limit
  private volatile String refusal;
  private final AtomicLong requestIds = new AtomicLong();
  private final Map<String, CompletableFuture<ObjectNode>> pending = new ConcurrentHashMap<>();
  private volatile State state = State.NEW;
  private volatile StreamObserver<Payload> stream;
  private volatile long lastActiveMillis;
  private volatile String clientVersion = "";
  private volatile CompletableFuture<ObjectNode> detection;

  /** With at most {@code writesPerSecond} writes a second (0: no limit). */
  ClientConnection(String id, String remoteIp, int remotePort, long nowMillis, PayloadCodec codec,
      int writesPerSecond) {
    this.id = id;
    this.remoteIp = remoteIp;
    this.remotePort = remotePort;
    this.lastActiveMillis = nowMillis;
    this.codec = codec;
    this.writes = writesPerSecond > 0 ? RateLimiter.create(writesPerSecond) : null;
  }

  /** Why this connection is refused (too many from its IP), or null when it is admitted. */
  String refusal() {
    return refusal;
  }

  void refuse(String why) {
    refusal = why;
  }

  /** Takes one write from this connection's allowance; false when it is used up for now. */
  boolean tryWrite() {
    return writes == null || writes.tryAcquire();
  }

  public String id() {
    return id;
  }

  /** The client's address as this node sees it (the transport's remote address). */
  public String remoteIp() {
    return remoteIp;
  }

  int remotePort() {
    return remotePort;
  }

  State state() {
    return state;
  }

  /** Not closed yet: requests may still be sent to it once it is registered. */
  public boolean isOpen() {
    return state != State.CLOSED;
  }

  boolean registered() {
    return state == State.REGISTERED;
  }

  String clientVersion() {
    return clientVersion;
  }

  long lastActiveMillis() {
    return lastActiveMillis;
  }

  void touch(long nowMillis) {
    lastActiveMillis = nowMillis;
  }

  /** The client set the connection up on {@code stream}; false if it was closed meanwhile. */
  synchronized boolean register(StreamObserver<Payload> stream, String clientVersion) {
    if (state == State.CLOSED) {
      return false;
    }
    this.stream = stream;
    this.clientVersion = clientVersion == null ? "" : clientVersion;
    state = State.REGISTERED;
    return true;
  }

  /**
   * Sends a server request and completes with the client's response body (any result code);
   * fails on a closed stream, or after {@code timeout} without an answer.
   */
  public CompletableFuture<ObjectNode> request(String type, ObjectNode body, Duration timeout,
      ScheduledExecutorService timer) {
    String requestId = Long.toString(requestIds.incrementAndGet());
    body.put("requestId", requestId);
    CompletableFuture<ObjectNode> answer = new CompletableFuture<>();
    pending.put(requestId, answer);
    answer.whenComplete((r, e) -> pending.remove(requestId));
    try {
      send(codec.encode(type, body));
    } catch (RuntimeException e) {
      answer.completeExceptionally(e);
      return answer;
    }
    var timeoutTask = timer.schedule(
        () -> answer.completeExceptionally(new TimeoutException(
            type + " " + requestId + " to client connection " + id + " got no answer within "
                + timeout.toMillis() + " ms")),
        timeout.toMillis(), TimeUnit.MILLISECONDS);
    answer.whenComplete((r, e) -> timeoutTask.cancel(false));
    return answer;
  }

  /** Sends a server request that the client does not answer (e.g. the setup acknowledgement). */
  void tell(String type, ObjectNode body) {
    send(codec.encode(type, body));
  }

  /** The client answered a server request; unknown or late ids are ignored. */
  void answered(String requestId, ObjectNode body) {
    CompletableFuture<ObjectNode> answer = requestId == null ? null : pending.get(requestId);
    if (answer != null) {
      answer.complete(body);
    }
  }

  /** A liveness probe in flight, if any (at most one at a time). */
  synchronized boolean startDetection(CompletableFuture<ObjectNode> probe) {
    if (detection != null && !detection.isDone()) {
      return false;
    }
    detection = probe;
    return true;
  }

  synchronized boolean detecting() {
    return detection != null && !detection.isDone();
  }

  private synchronized void send(Payload payload) {
    StreamObserver<Payload> s = stream;
    if (state != State.REGISTERED || s == null) {
      throw new IllegalStateException("client connection " + id + " is " + state.name().toLowerCase()
          + ": nothing can be sent to it");
    }
    s.onNext(payload);
  }

  /**
   * Marks the connection closed, fails what waits for the client and ends the stream with
   * {@code status} (the client reconnects). Returns whether it was registered before.
   */
  boolean close(Status status) {
    StreamObserver<Payload> s;
    boolean wasRegistered;
    synchronized (this) {
      if (state == State.CLOSED) {
        return false;
      }
      wasRegistered = state == State.REGISTERED;
      state = State.CLOSED;
      s = stream;
      stream = null;
    }
    IllegalStateException closed = new IllegalStateException("client connection " + id + " closed");
    pending.values().forEach(f -> f.completeExceptionally(closed));
    if (s != null) {
      try {
        if (status.isOk()) {
          s.onCompleted();
        } else {
          s.onError(status.asRuntimeException());
        }
      } catch (RuntimeException e) {
        // The call is already over (the client went first): nothing left to end.
      }
    }
    return wasRegistered;
  }

  @Override
  public String toString() {
    return id + "[" + state + ", " + clientVersion + "]";
  }
}
