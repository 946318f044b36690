package dev.nacre.node.client;

import dev.nacre.consensus.async.Completions;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.proto.nacos.Payload;
import dev.nacre.proto.nacos.RequestGrpc;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /Request/request}: one client request, one reply, checked in Nacos' order: the server
 * check needs no registration; an unknown kind gets 302; a connection that did not set itself up
 * on its stream gets 301 (the client reconnects); a body that cannot be read gets 502; parameter
 * errors come back in the typed response with 400. Nothing a client sends escapes as an exception.
 */
final class UnaryRequestService extends RequestGrpc.RequestImplBase {
  private static final Logger log = LoggerFactory.getLogger(UnaryRequestService.class);

  private final String nodeName;
  private final ClientConnections connections;
  private final PayloadCodec codec;
  private final Map<String, ClientRequestHandlers.Handler> handlers;
  private final Set<String> writes;
  private final Set<String> reads;
  private final ClientRequestHandlers domain;
  private final ClientRequestObserver observer;
  private final RequestAccess access;

  UnaryRequestService(String nodeName, ClientConnections connections, PayloadCodec codec,
      ClientRequestHandlers domain, ClientRequestObserver observer, RequestAccess access) {
    this.nodeName = nodeName;
    this.access = access;
    this.observer = observer;
    this.connections = connections;
    this.codec = codec;
    Map<String, ClientRequestHandlers.Handler> all = new HashMap<>(domain.handlers());
    all.put("HealthCheckRequest", ClientRequestHandlers.now((c, p) -> Replies.ok(codec, "HealthCheckResponse")));
    this.handlers = Map.copyOf(all);
    this.writes = domain.writes();
    this.reads = domain.reads();
    this.domain = domain;
  }

  /**
   * Runs on the transport thread and never waits there: a request that needs a CP write is
   * answered from the thread that completes the write.
   */
  @Override
  public void request(Payload payload, StreamObserver<Payload> responses) {
    long arrived = System.nanoTime();
    String connectionId = ConnectionTransportFilter.connectionId(); // a gRPC context value: read it here
    CompletableFuture<Reply> reply;
    try {
      reply = answer(connectionId, payload);
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    reply.whenComplete((answered, error) -> send(payload, error == null ? answered : failed(payload, error),
        responses, arrived));
  }

  private Reply failed(Payload payload, Throwable error) {
    Throwable cause = Completions.cause(error);
    log.warn("[{}] client request {} failed", nodeName, PayloadCodec.type(payload), cause);
    return Replies.error(codec, Replies.SERVER_ERROR, "Server failed to handle "
        + PayloadCodec.type(payload) + ": " + cause);
  }

  private void send(Payload payload, Reply reply, StreamObserver<Payload> responses, long arrived) {
    responses.onNext(codec.encode(reply.type(), reply.body()));
    responses.onCompleted();
    String type = PayloadCodec.type(payload);
    observer.answered(handlers.containsKey(type) || type.equals("ServerCheckRequest") ? type : "other",
        reply.body().path("errorCode").asInt(0), System.nanoTime() - arrived);
  }

  /**
   * Auth on: a domain request needs its namespace's read or write access, by the token in its
   * headers; the namespace is where its domain says ({@code namespace}, or {@code tenant} for
   * configuration requests).
   */
  private Optional<String> refusal(String type, Payload payload) throws BadBodyException {
    boolean write = writes.contains(type);
    if (!write && !reads.contains(type)) {
      return Optional.empty(); // connection-level (health check): nothing of the registry
    }
    Optional<String> token = Optional.ofNullable(payload.getMetadata().getHeadersMap().get("accessToken"))
        .filter(t -> !t.isEmpty());
    return access.refusal(token, codec.body(payload).at(domain.namespaceField(type)).asText(""), write);
  }

  private CompletableFuture<Reply> answer(String connectionId, Payload payload) {
    String type = PayloadCodec.type(payload);
    Optional<ClientConnection> connection = connections.get(connectionId);
    Optional<String> refused = connection.map(ClientConnection::refusal);
    if (refused.isPresent()) {
      return CompletableFuture.completedFuture(Replies.error(codec, Replies.UNAVAILABLE, refused.get()));
    }
    if (type.equals("ServerCheckRequest")) {
      Reply ok = Replies.ok(codec, "ServerCheckResponse");
      ok.body().put("connectionId", connectionId);
      // Clients that know ability negotiation then wait for the SetupAckRequest on the stream.
      ok.body().put("supportAbilityNegotiation", true);
      return CompletableFuture.completedFuture(ok);
    }
    ClientRequestHandlers.Handler handler = handlers.get(type);
    if (handler == null) {
      return CompletableFuture.completedFuture(Replies.error(codec, Replies.NO_HANDLER, "RequestHandler Not Found"));
    }
    if (connection.isEmpty() || !connection.get().registered()) {
      return CompletableFuture.completedFuture(Replies.error(codec, Replies.UNREGISTERED, "Connection is unregistered."));
    }
    ClientConnection c = connection.get();
    c.touch(connections.nowMillis());
    if (writes.contains(type) && !c.tryWrite()) {
      return CompletableFuture.completedFuture(Replies.error(codec, Replies.UNAVAILABLE, "Over threshold: connection "
          + c.id() + " sent more than " + connections.settings().writesPerSecond() + " registrations and removals"
          + " a second (nacre.client.writes-per-second on server " + nodeName + "); slow down and retry."));
    }
    try {
      Optional<String> denied = access == RequestAccess.OPEN ? Optional.empty() : refusal(type, payload);
      if (denied.isPresent()) {
        return CompletableFuture.completedFuture(Replies.error(codec, Replies.NO_RIGHT, denied.get()));
      }
      return handler.handle(c, payload);
    } catch (BadBodyException e) {
      log.debug("[{}] unreadable {} from {}: {}", nodeName, type, c.id(), e.getMessage());
      return CompletableFuture.completedFuture(Replies.error(codec, Replies.BAD_GATEWAY,
          "errCode: 101, errMsg: Nacos deserialize failed. " + e.getMessage()));
    }
  }
}
