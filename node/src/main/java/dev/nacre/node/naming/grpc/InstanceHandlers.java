package dev.nacre.node.naming.grpc;

import static dev.nacre.node.naming.grpc.NamingRequests.unsupportedType;

import dev.nacre.consensus.async.Completions;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.writes.InstanceWriteRouter;
import dev.nacre.node.client.ClientConnection;
import dev.nacre.node.client.ClientConnections;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.node.naming.grpc.NamingRequests.BatchInstanceRequest;
import dev.nacre.node.naming.grpc.NamingRequests.InstanceRequest;
import dev.nacre.proto.nacos.Payload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Registrations over gRPC: {@code InstanceRequest} and {@code BatchInstanceRequest} for ephemeral
 * instances (owned by the connection), {@code PersistentInstanceRequest} for persistent ones (the
 * replicated log). Nacre differs from Nacos on purpose: one service may hold both kinds.
 */
final class InstanceHandlers {
  private final String nodeName;
  private final InstanceWriteRouter writes;
  private final PayloadCodec codec;
  private final int metadataMaxLength;
  private final ClientConnections connections;
  private final CpWritesInFlight cpWrites;

  InstanceHandlers(String nodeName, InstanceWriteRouter writes, PayloadCodec codec, int metadataMaxLength,
      ClientConnections connections, CpWritesInFlight cpWrites) {
    this.nodeName = nodeName;
    this.writes = writes;
    this.connections = connections;
    this.codec = codec;
    this.metadataMaxLength = metadataMaxLength;
    this.cpWrites = cpWrites;
  }

  CompletableFuture<Reply> instance(ClientConnection connection, Payload payload) throws BadBodyException {
    InstanceRequest r = codec.read(payload, InstanceRequest.class);
    return answerWhenDone(connection, "InstanceResponse", r.type(), () -> {
      Instance instance = instance(r.serviceKey(), r.instance(), true);
      return switch (String.valueOf(r.type())) {
        case "registerInstance" -> admitted(instance, () -> writes.registerForConnection(connection.id(), instance));
        case "deregisterInstance" ->
            admitted(instance, () -> writes.deregisterForConnection(connection.id(), instance));
        default -> throw unsupportedType("InstanceRequest", r.type());
      };
    });
  }

  CompletableFuture<Reply> persistent(ClientConnection connection, Payload payload) throws BadBodyException {
    InstanceRequest r = codec.read(payload, InstanceRequest.class);
    return answerWhenDone(connection, "InstanceResponse", r.type(), () -> {
      Instance instance = instance(r.serviceKey(), r.instance(), false);
      Instance persistent = new Instance(instance.key(), instance.weight(), instance.healthy(),
          instance.enabled(), false, instance.metadata());
      return switch (String.valueOf(r.type())) {
        case "registerInstance" -> admitted(persistent, () -> writes.registerForConnection(connection.id(), persistent));
        case "deregisterInstance" ->
            admitted(persistent, () -> writes.deregisterForConnection(connection.id(), persistent));
        default -> throw unsupportedType("PersistentInstanceRequest", r.type());
      };
    });
  }

  Reply batch(ClientConnection connection, Payload payload) throws BadBodyException {
    BatchInstanceRequest r = codec.read(payload, BatchInstanceRequest.class);
    return answer(connection, "BatchInstanceResponse", r.type(), () -> {
      ServiceKey service = r.serviceKey();
      List<Instance> instances = new ArrayList<>();
      for (WireInstance w : r.instances() == null ? List.<WireInstance>of() : r.instances()) {
        Instance i = instance(service, w, true);
        if (!i.ephemeral()) {
          throw NamingException.invalid("Param 'instances' is illegal: a batch holds ephemeral"
              + " instances only; register " + i.key().instanceId() + " with its own request.");
        }
        instances.add(i);
      }
      switch (String.valueOf(r.type())) {
        case "batchRegisterInstance" -> writes.replaceForConnection(connection.id(), service, instances);
        case "batchDeregisterInstance" -> instances.forEach(i -> writes.deregisterForConnection(connection.id(), i));
        default -> throw unsupportedType("BatchInstanceRequest", r.type());
      }
    });
  }

  private Instance instance(ServiceKey service, WireInstance wire, boolean ephemeralDefault) {
    if (wire == null) {
      throw NamingException.invalid("Param 'instance' is required.");
    }
    if (wire.metadataLength() > metadataMaxLength) {
      throw NamingException.invalid("Param 'Metadata' is illegal, the param length should not exceed "
          + metadataMaxLength + ".");
    }
    return wire.toInstance(service, ephemeralDefault);
  }

  private Reply answer(ClientConnection connection, String responseType, String requestType,
      Runnable action) {
    return answerWhenDone(connection, responseType, requestType, () -> {
      action.run();
      return CompletableFuture.completedFuture(null);
    }).join(); // complete already: the action ran here
  }

  /**
   * Runs {@code action} here and answers once the future it returns completes: a registry error
   * becomes the typed response's error, anything else fails the reply (a server error).
   */
  private CompletableFuture<Reply> answerWhenDone(ClientConnection connection, String responseType,
      String requestType, Supplier<CompletableFuture<Void>> action) {
    CompletableFuture<Void> done;
    try {
      done = action.get();
    } catch (CpWritesFull e) {
      connections.afterWrite(connection);
      return CompletableFuture.completedFuture(Replies.error(codec, Replies.UNAVAILABLE, "Over threshold: "
          + CpWritesInFlight.MAX + " CP writes wait on server " + nodeName
          + "; retry later, or spread the writes over more servers."));
    } catch (RuntimeException e) {
      done = CompletableFuture.failedFuture(e);
    }
    return done.handle((ignored, error) -> {
      connections.afterWrite(connection);
      if (error == null) {
        Reply ok = Replies.ok(codec, responseType);
        if (requestType != null) {
          ok.body().put("type", requestType);
        }
        return ok;
      }
      Throwable cause = Completions.cause(error);
      if (cause instanceof NamingException e) {
        return NamingReplies.refused(codec, responseType, e);
      }
      throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    });
  }

  /**
   * Runs {@code write}; a persistent instance's (a CP write, which waits for its commit) only if
   * fewer than {@link CpWritesInFlight#MAX} are in flight, its slot freed when it completes.
   */
  private CompletableFuture<Void> admitted(Instance instance, Supplier<CompletableFuture<Void>> write) {
    if (instance.ephemeral()) {
      return write.get();
    }
    if (!cpWrites.tryEnter()) {
      throw new CpWritesFull();
    }
    try {
      return write.get().whenComplete((ignored, error) -> cpWrites.exit());
    } catch (RuntimeException e) {
      cpWrites.exit();
      throw e;
    }
  }

  /** Thrown by {@link #admitted} when no slot is free; answered as Nacos' over-threshold error. */
  private static final class CpWritesFull extends RuntimeException {
    CpWritesFull() {
      super(null, null, false, false);
    }
  }
}
