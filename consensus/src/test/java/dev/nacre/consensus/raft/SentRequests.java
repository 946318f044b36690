package dev.nacre.consensus.raft;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.ratis.grpc.server.GrpcServicesImpl;
import org.apache.ratis.proto.RaftProtos.RaftRpcRequestProto;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.util.CodeInjectionForTesting;

/**
 * Counts the Raft requests of one kind that members in this JVM send to one member, through Ratis'
 * JVM-wide send hook (one such counter at a time); closing it removes the hook.
 */
final class SentRequests implements AutoCloseable {
  private final AtomicInteger count = new AtomicInteger();

  /**
   * Counts requests of {@code kind} sent by {@code from} (any member when null) to {@code to};
   * {@code header} reads a request's addressing part.
   */
  static <T> SentRequests of(Class<T> kind, Function<T, RaftRpcRequestProto> header, String from, String to) {
    SentRequests sent = new SentRequests();
    RaftPeerId target = RaftPeerId.valueOf(to);
    CodeInjectionForTesting.put(GrpcServicesImpl.GRPC_SEND_SERVER_REQUEST, (local, remote, args) -> {
      Object request = args[args.length - 1];
      if ((from == null || from.equals(String.valueOf(local))) && kind.isInstance(request)
          && header.apply(kind.cast(request)).getReplyId().equals(target.toByteString())) {
        sent.count.incrementAndGet();
      }
      return false;
    });
    return sent;
  }

  int count() {
    return count.get();
  }

  @Override
  public void close() {
    CodeInjectionForTesting.remove(GrpcServicesImpl.GRPC_SEND_SERVER_REQUEST);
  }
}
