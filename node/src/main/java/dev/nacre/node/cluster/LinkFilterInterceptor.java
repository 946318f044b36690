package dev.nacre.node.cluster;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.concurrent.locks.LockSupport;

/**
 * Applies a {@link LinkFilter} to calls arriving on the peer port. Must run after
 * {@link PeerAuth#server()}: the sender is the member id that PeerAuth verified. A dropped call is
 * closed with UNAVAILABLE before it reaches the service; a delayed one is held on the gRPC executor
 * thread that delivers it. The answer of an admitted call is not filtered.
 */
final class LinkFilterInterceptor implements ServerInterceptor {
  static final String CUT = "link cut by fault injection";

  private final String self;
  private final LinkFilter filter;

  LinkFilterInterceptor(String self, LinkFilter filter) {
    this.self = self;
    this.filter = filter;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String from = headers.get(PeerAuth.MEMBER);
    LinkFilter.Decision d = filter.decide(from, self);
    if (d.dropped()) {
      call.close(Status.UNAVAILABLE.withDescription(CUT + " (" + from + " -> " + self + ")"), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    if (!d.delay().isZero()) {
      LockSupport.parkNanos(d.delay().toNanos());
    }
    return next.startCall(call, headers);
  }
}
