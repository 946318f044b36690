package dev.nacre.node.client;

import static dev.nacre.node.client.NamingRequests.unsupportedType;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.client.NamingRequests.BatchInstanceRequest;
import dev.nacre.node.client.NamingRequests.InstanceRequest;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.proto.nacos.Payload;
import java.util.ArrayList;
import java.util.List;

/**
 * Registrations over gRPC: {@code InstanceRequest} and {@code BatchInstanceRequest} for ephemeral
 * instances (owned by the connection), {@code PersistentInstanceRequest} for persistent ones (the
 * replicated log). Nacre differs from Nacos on purpose: one service may hold both kinds.
 */
final class InstanceHandlers {
  private final NamingOperations naming;
  private final PayloadCodec codec;
  private final int metadataMaxLength;
  private final ClientConnections connections;

  InstanceHandlers(NamingOperations naming, PayloadCodec codec, int metadataMaxLength,
      ClientConnections connections) {
    this.naming = naming;
    this.connections = connections;
    this.codec = codec;
    this.metadataMaxLength = metadataMaxLength;
  }

  Reply instance(ClientConnection connection, Payload payload) throws BadBodyException {
    InstanceRequest r = codec.read(payload, InstanceRequest.class);
    return answer(connection, "InstanceResponse", r.type(), () -> {
      Instance instance = instance(r.serviceKey(), r.instance(), true);
      switch (String.valueOf(r.type())) {
        case "registerInstance" -> {
          if (instance.ephemeral()) {
            naming.registerClientInstance(connection.id(), instance);
          } else {
            naming.registerInstance(instance);
          }
        }
        case "deregisterInstance" -> {
          if (instance.ephemeral()) {
            naming.deregisterClientInstance(connection.id(), instance.key());
          } else {
            naming.deregisterInstance(instance.key(), false);
          }
        }
        default -> throw unsupportedType("InstanceRequest", r.type());
      }
    });
  }

  Reply persistent(ClientConnection connection, Payload payload) throws BadBodyException {
    InstanceRequest r = codec.read(payload, InstanceRequest.class);
    return answer(connection, "InstanceResponse", r.type(), () -> {
      Instance instance = instance(r.serviceKey(), r.instance(), false);
      Instance persistent = new Instance(instance.key(), instance.weight(), instance.healthy(),
          instance.enabled(), false, instance.metadata());
      switch (String.valueOf(r.type())) {
        case "registerInstance" -> naming.registerInstance(persistent);
        case "deregisterInstance" -> naming.deregisterInstance(persistent.key(), false);
        default -> throw unsupportedType("PersistentInstanceRequest", r.type());
      }
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
        case "batchRegisterInstance" -> naming.replaceClientInstances(connection.id(), service, instances);
        case "batchDeregisterInstance" -> instances.forEach(
            i -> naming.deregisterClientInstance(connection.id(), i.key()));
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
    try {
      action.run();
    } catch (NamingException e) {
      return Replies.of(codec, responseType, e);
    } finally {
      connections.afterWrite(connection);
    }
    Reply ok = Replies.ok(codec, responseType);
    if (requestType != null) {
      ok.body().put("type", requestType);
    }
    return ok;
  }
}
