package dev.nacre.node.cluster.peer;

import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCall;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;

/**
 * Times every call the peer port answers, from arrival to its close, by method and gRPC status
 * (refusals by the call limit or authentication included: it runs first).
 */
final class PeerCallTimer implements ServerInterceptor {
  private final PeerCallObserver observer;

  PeerCallTimer(PeerCallObserver observer) {
    this.observer = observer;
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    long start = System.nanoTime();
    String method = call.getMethodDescriptor().getBareMethodName();
    return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        observer.record(method == null ? "unknown" : method, status.getCode().name(), System.nanoTime() - start);
        super.close(status, trailers);
      }
    }, headers);
  }
}
