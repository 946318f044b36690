package dev.nacre.node.configs.grpc;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.node.client.ClientConnection;
import dev.nacre.node.client.ClientConnections;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.node.configs.grpc.ConfigRequests.ConfigBatchListenRequest;
import dev.nacre.node.configs.grpc.ConfigRequests.ConfigListenContext;
import dev.nacre.node.configs.grpc.ConnectionListener.Listened;
import dev.nacre.proto.nacos.Payload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code ConfigBatchListenRequest}: with {@code listen} true each key is added to what the
 * connection hears of, knowing the md5 the client sent, and the answer lists the keys whose
 * content differs from it; with {@code listen} false the keys are cancelled. A closed
 * connection stops listening to everything.
 */
final class ListenHandlers {
  private final ConfigOperations ops;
  private final ConfigListeners listeners;
  private final PayloadCodec codec;
  private final ClientConnections connections;
  private final ChangePushes pushes;
  private final Map<String, ConnectionListener> byConnection = new ConcurrentHashMap<>();

  ListenHandlers(ConfigOperations ops, ConfigListeners listeners, PayloadCodec codec,
      ClientConnections connections, ChangePushes pushes) {
    this.ops = ops;
    this.listeners = listeners;
    this.codec = codec;
    this.connections = connections;
    this.pushes = pushes;
    connections.onClose(this::closed);
  }

  Reply listen(ClientConnection connection, Payload payload) throws BadBodyException {
    ConfigBatchListenRequest r = codec.read(payload, ConfigBatchListenRequest.class);
    String type = "ConfigChangeBatchListenResponse";
    String tag = payload.getMetadata().getHeadersMap().getOrDefault(ConfigRequests.TAG_HEADER, "");
    List<ConfigListenContext> contexts = r.contexts();
    try {
      // Every key is checked before any is listened to: a bad one refuses the whole request.
      List<ConfigKey> keys = new ArrayList<>();
      for (ConfigListenContext c : contexts) {
        keys.add(c.key());
      }
      ConnectionListener listener = byConnection.computeIfAbsent(connection.id(),
          id -> new ConnectionListener(connection, pushes));
      Reply ok = Replies.ok(codec, type);
      ArrayNode changed = ok.body().putArray("changedConfigs");
      for (int i = 0; i < contexts.size(); i++) {
        ConfigListenContext c = contexts.get(i);
        ConfigKey key = keys.get(i);
        if (!r.listen()) {
          listener.cancel(key);
          listeners.cancel(listener, key);
          continue;
        }
        String md5 = ConfigRequests.orEmpty(c.md5());
        listener.listen(key, new Listened(c.dataId(), c.group(), c.tenant(), md5, tag));
        listeners.listen(listener, key, md5);
        if (!ops.md5For(key, connection.remoteIp(), tag).equals(md5)) {
          ObjectNode entry = changed.addObject();
          entry.put("group", c.group());
          entry.put("dataId", c.dataId());
          if (c.tenant() != null) {
            entry.put("tenant", c.tenant());
          }
        }
      }
      // Closed meanwhile: the close listeners may have run before these keys were added.
      connections.afterWrite(connection);
      return ok;
    } catch (ConfigException e) {
      return ConfigReplies.refused(codec, type, e);
    }
  }

  /** The connection read {@code md5} for {@code key}: what it holds now, if it listens to it. */
  void known(ClientConnection connection, ConfigKey key, String md5) {
    ConnectionListener listener = byConnection.get(connection.id());
    if (listener != null) {
      listener.known(key, md5);
    }
  }

  /** Connections listening to something, for tests and operators. */
  int listeningConnections() {
    return byConnection.size();
  }

  private void closed(String connectionId) {
    ConnectionListener listener = byConnection.remove(connectionId);
    if (listener != null) {
      listeners.cancelAll(listener);
    }
  }
}
