package dev.nacre.node.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.proto.nacos.BiRequestStreamGrpc;
import dev.nacre.proto.nacos.Payload;
import java.util.Optional;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /BiRequestStream/requestBiStream}: the client sets its connection up with a
 * {@code ConnectionSetupRequest} (answered by a {@code SetupAckRequest} when it sent an ability
 * table), then answers the server's requests on it. When the stream ends, so does the connection.
 */
final class StreamService extends BiRequestStreamGrpc.BiRequestStreamImplBase {
  private static final Logger log = LoggerFactory.getLogger(StreamService.class);

  private final String nodeName;
  private final ClientConnections connections;
  private final PayloadCodec codec;

  StreamService(String nodeName, ClientConnections connections, PayloadCodec codec) {
    this.nodeName = nodeName;
    this.connections = connections;
    this.codec = codec;
  }

  @Override
  public StreamObserver<Payload> requestBiStream(StreamObserver<Payload> toClient) {
    String id = ConnectionTransportFilter.connectionId();
    return new StreamObserver<>() {
      @Override
      public void onNext(Payload payload) {
        try {
          received(id, payload, toClient);
        } catch (RuntimeException e) {
          log.warn("[{}] message {} on the stream of {} failed", nodeName, PayloadCodec.type(payload), id, e);
        }
      }

      @Override
      public void onError(Throwable t) {
        ended(id, "stream failed: " + Status.fromThrowable(t));
      }

      @Override
      public void onCompleted() {
        ended(id, "client ended the stream");
      }
    };
  }

  private void received(String id, Payload payload, StreamObserver<Payload> toClient) {
    String type = PayloadCodec.type(payload);
    Optional<ClientConnection> connection = connections.get(id);
    if (connection.isEmpty()) {
      toClient.onError(Status.UNAVAILABLE.withDescription("connection is closed").asRuntimeException());
      return;
    }
    ClientConnection c = connection.get();
    if (c.refusal() != null) {
      toClient.onError(Status.RESOURCE_EXHAUSTED.withDescription(c.refusal()).asRuntimeException());
      return;
    }
    c.touch(connections.nowMillis());
    ObjectNode body;
    try {
      body = codec.body(payload);
    } catch (BadBodyException e) {
      log.debug("[{}] unreadable {} on the stream of {}: {}", nodeName, type, id, e.getMessage());
      return;
    }
    if (type.equals("ConnectionSetupRequest")) {
      setUp(c, payload, toClient);
    } else if (body.has("resultCode")) {
      c.answered(body.path("requestId").asText(null), body);
    } else {
      log.debug("[{}] ignoring {} on the stream of {}", nodeName, type, id);
    }
  }

  private void setUp(ClientConnection c, Payload payload, StreamObserver<Payload> toClient) {
    ConnectionSetupRequest setup;
    try {
      setup = codec.read(payload, ConnectionSetupRequest.class);
    } catch (BadBodyException e) {
      toClient.onError(Status.INVALID_ARGUMENT
          .withDescription("ConnectionSetupRequest cannot be read: " + e.getMessage()).asRuntimeException());
      return;
    }
    if (!connections.register(c.id(), toClient, setup.clientVersion())) {
      toClient.onError(Status.UNAVAILABLE.withDescription("connection is closed").asRuntimeException());
      return;
    }
    if (setup.abilityTable() != null) {
      // We said supportAbilityNegotiation; the client waits for this before it sends anything.
      ObjectNode ack = codec.object();
      ack.putObject("abilityTable").put("supportPersistentInstanceByGrpc", true);
      ack.put("module", "internal");
      ack.putObject("headers");
      c.tell("SetupAckRequest", ack);
    }
  }

  private void ended(String id, String why) {
    connections.get(id).ifPresent(c -> connections.close(c, Status.UNAVAILABLE, why));
  }

  /** What a client says of itself when it sets up its stream; the rest of the body is not read. */
  @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
  record ConnectionSetupRequest(String clientVersion, java.util.Map<String, String> labels,
      java.util.Map<String, Boolean> abilityTable) {}
}
