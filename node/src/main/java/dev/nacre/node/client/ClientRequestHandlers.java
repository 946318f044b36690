package dev.nacre.node.client;

import dev.nacre.node.client.PayloadCodec.BadBodyException;
import dev.nacre.node.client.Replies.Reply;
import dev.nacre.proto.nacos.Payload;
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
 */
public record ClientRequestHandlers(Map<String, Handler> handlers, Set<String> writes, Set<String> reads) {

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
