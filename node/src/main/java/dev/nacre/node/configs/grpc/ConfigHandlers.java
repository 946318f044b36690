package dev.nacre.node.configs.grpc;

import static dev.nacre.node.configs.grpc.ConfigRequests.orEmpty;
import static dev.nacre.node.configs.grpc.ConfigRequests.present;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.ConfigRead;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.consensus.async.Completions;
import dev.nacre.node.client.ClientConnection;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.node.configs.grpc.ConfigRequests.ConfigPublishRequest;
import dev.nacre.node.configs.grpc.ConfigRequests.ConfigQueryRequest;
import dev.nacre.node.configs.grpc.ConfigRequests.ConfigRemoveRequest;
import dev.nacre.proto.nacos.Payload;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Reads and writes over gRPC: {@code ConfigQueryRequest} (the beta content for the connection's
 * address when it is among the beta addresses, else the tag's, else the formal one),
 * {@code ConfigPublishRequest} (formal, beta, tag, compare-and-set) and {@code ConfigRemoveRequest}.
 */
final class ConfigHandlers {
  private final ConfigOperations ops;
  private final PayloadCodec codec;
  private final ListenHandlers listens;

  ConfigHandlers(ConfigOperations ops, PayloadCodec codec, ListenHandlers listens) {
    this.ops = ops;
    this.codec = codec;
    this.listens = listens;
  }

  Reply query(ClientConnection connection, Payload payload) throws BadBodyException {
    ConfigQueryRequest r = codec.read(payload, ConfigQueryRequest.class);
    String type = "ConfigQueryResponse";
    try {
      ConfigKey key = r.key();
      Optional<ConfigRead> read = ops.read(key, connection.remoteIp(), orEmpty(r.tag()));
      if (read.isEmpty()) {
        // The client answers getConfig with null on this code (and clears its snapshot).
        return Replies.fail(codec, type, ConfigReplies.CONFIG_NOT_FOUND, "config data not exist");
      }
      ConfigItem item = read.get().item();
      listens.known(connection, key, item.md5());
      Reply ok = Replies.ok(codec, type);
      ObjectNode body = ok.body();
      body.put("content", item.content());
      if (!item.encryptedDataKey().isEmpty()) {
        body.put("encryptedDataKey", item.encryptedDataKey());
      }
      body.put("contentType", item.type());
      body.put("md5", item.md5());
      body.put("lastModified", item.modifiedMillis());
      body.put("beta", read.get().beta());
      if (!read.get().tag().isEmpty()) {
        body.put("tag", read.get().tag());
      }
      return ok;
    } catch (ConfigException e) {
      if (e.kind() == ConfigException.Kind.INVALID) {
        // Not the typed response: its code 400 reads "being modified" in the client's log.
        return Replies.error(codec, Replies.PARAM_INVALID, "Param check invalid:" + e.getMessage());
      }
      return ConfigReplies.refused(codec, type, e);
    }
  }

  CompletableFuture<Reply> publish(ClientConnection connection, Payload payload) throws BadBodyException {
    ConfigPublishRequest r = codec.read(payload, ConfigPublishRequest.class);
    return answerWhenDone("ConfigPublishResponse", () -> {
      if (r.content() == null) {
        throw new ConfigException(ConfigException.Kind.INVALID, "Param 'content' is required.");
      }
      return ops.publish(new PublishRequest(r.key(), r.content(), r.addition("type"), r.addition("appName"),
          r.addition("desc"), r.addition("config_tags"), r.addition("encryptedDataKey"), r.addition("src_user"),
          connection.remoteIp(), present(r.casMd5()), present(r.addition("betaIps")), present(r.addition("tag"))));
    });
  }

  CompletableFuture<Reply> remove(ClientConnection connection, Payload payload) throws BadBodyException {
    ConfigRemoveRequest r = codec.read(payload, ConfigRemoveRequest.class);
    // Removing what is not there succeeds, as on Nacos.
    return answerWhenDone("ConfigRemoveResponse", () -> ops.remove(
        new RemoveRequest(r.key(), false, present(r.tag()), "", connection.remoteIp())));
  }

  /**
   * Nacos sends this request the other way (server to client, for its cluster-wide listener
   * check); a client that sends it gets an empty metrics map.
   */
  Reply metric(ClientConnection connection, Payload payload) throws BadBodyException {
    codec.read(payload, ConfigRequests.ClientConfigMetricRequest.class);
    Reply ok = Replies.ok(codec, "ClientConfigMetricResponse");
    ok.body().putObject("metrics");
    return ok;
  }

  /**
   * Runs {@code action} here and answers once its future completes: a {@link ConfigException}
   * becomes the typed response's error, anything else fails the reply (a server error).
   */
  private CompletableFuture<Reply> answerWhenDone(String type, Supplier<CompletableFuture<?>> action) {
    CompletableFuture<?> done;
    try {
      done = action.get();
    } catch (RuntimeException e) {
      done = CompletableFuture.failedFuture(e);
    }
    return done.handle((ignored, error) -> {
      if (error == null) {
        return Replies.ok(codec, type);
      }
      Throwable cause = Completions.cause(error);
      if (cause instanceof ConfigException e) {
        return ConfigReplies.refused(codec, type, e);
      }
      throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
    });
  }
}
