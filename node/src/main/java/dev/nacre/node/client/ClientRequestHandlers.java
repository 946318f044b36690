package dev.nacre.node.client;

import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.proto.nacos.Payload;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The requests of one domain (naming; configuration next) that the client port answers, by
 * request type. The port itself answers the connection-level requests (server check, health
 * check, stream set-up) and checks every request in Nacos' order before its handler runs.
 *
 * @param handlers the handler of each request type the domain answers
 * @param writes the types that change data: counted against a connection's write allowance and,
 *     with authentication on, checked for write access to the request's namespace
 * @param reads the types that read a namespace (checked for read access with authentication on)
 * @param namespaceFields where the body names the namespace, as a JSON Pointer, by request type,
 *     where it is not {@code /namespace} (configuration requests name it {@code /tenant}; a batch
 *     listen in its first key, as Nacos checks it)
 */
public record ClientRequestHandlers(Map<String, Handler> handlers, Set<String> writes, Set<String> reads,
    Map<String, String> namespaceFields) {
  /** Where naming requests carry their namespace. */
  public static final String NAMESPACE = "/namespace";

  public ClientRequestHandlers {
    handlers = Map.copyOf(handlers);
    writes = Set.copyOf(writes);
    reads = Set.copyOf(reads);
    namespaceFields = Map.copyOf(namespaceFields);
  }

  /** A domain whose requests all name their namespace in {@code namespace}. */
  public ClientRequestHandlers(Map<String, Handler> handlers, Set<String> writes, Set<String> reads) {
    this(handlers, writes, reads, Map.of());
  }

  /** Where the body of a request of {@code type} names its namespace (a JSON Pointer). */
  public String namespaceField(String type) {
    return namespaceFields.getOrDefault(type, NAMESPACE);
  }

  /**
   * The handlers of several domains on one port.
   *
   * @throws IllegalArgumentException when two domains answer the same request type
   */
  public static ClientRequestHandlers combine(List<ClientRequestHandlers> domains) {
    Map<String, Handler> handlers = new HashMap<>();
    Set<String> writes = new HashSet<>();
    Set<String> reads = new HashSet<>();
    Map<String, String> fields = new HashMap<>();
    for (ClientRequestHandlers d : domains) {
      for (Map.Entry<String, Handler> e : d.handlers().entrySet()) {
        if (handlers.putIfAbsent(e.getKey(), e.getValue()) != null) {
          throw new IllegalArgumentException("two domains answer " + e.getKey()
              + " on the client port: each request type must belong to one domain");
        }
      }
      writes.addAll(d.writes());
      reads.addAll(d.reads());
      fields.putAll(d.namespaceFields());
    }
    return new ClientRequestHandlers(handlers, writes, reads, fields);
  }

  /** The factories' domains on one port, built in order; see {@link #combine(List)}. */
  public static Factory combine(Factory... factories) {
    List<Factory> all = List.of(factories);
    return (codec, connections) -> combine(all.stream().map(f -> f.create(codec, connections)).toList());
  }

  /**
   * Answers one kind of request on a registered connection. Runs on the transport thread and must
   * not block: a request that waits (a CP write) returns a future completed when it is done.
   */
  @FunctionalInterface
  public interface Handler {
    CompletableFuture<Reply> handle(ClientConnection connection, Payload payload) throws BadBodyException;
  }

  /** A handler whose answer is ready when it returns. */
  @FunctionalInterface
  public interface ImmediateHandler {
    Reply handle(ClientConnection connection, Payload payload) throws BadBodyException;
  }

  /** Builds a domain's handlers on the port's codec and connections, once the port has them. */
  @FunctionalInterface
  public interface Factory {
    ClientRequestHandlers create(PayloadCodec codec, ClientConnections connections);
  }

  /** {@code handler} as a {@link Handler} answered at once. */
  public static Handler now(ImmediateHandler handler) {
    return (c, p) -> CompletableFuture.completedFuture(handler.handle(c, p));
  }
}
