package dev.nacre.cluster;

import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;

/**
 * Applies a {@link LinkFilter} to calls arriving on the peer port. Must run after the peer port's
 * authentication: the sender ({@code sender} reads it from a call's headers) is the member id that
 * it verified. A dropped call is
 * closed with UNAVAILABLE before it reaches the service; a delayed one is held on the gRPC executor
 * thread that delivers it. The answer of an admitted call is not filtered.
 */
public final class LinkFilterInterceptor implements ServerInterceptor {
  static final String CUT = "link cut by fault injection";

  private final String self;
  private final LinkFilter filter;
  private final Function<Metadata, String> sender;

  public LinkFilterInterceptor(String self, LinkFilter filter, Function<Metadata, String> sender) {
    this.self = self;
    this.filter = filter;
    this.sender = sender;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String from = sender.apply(headers);
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
