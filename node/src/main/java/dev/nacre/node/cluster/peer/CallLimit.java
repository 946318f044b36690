package dev.nacre.node.cluster.peer;

import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;

/**
 * At most {@code maxCalls} calls in flight on a gRPC server; one more is closed at once with
 * RESOURCE_EXHAUSTED, which the caller treats as any failed call (Distro retries its batch, a
 * forward fails over). A call counts from its start until it is closed or cancelled, so the pool
 * that runs handlers never needs more threads than this. Exempt methods (pings: cheap, and a
 * refused ping would make a busy member look DOWN) are neither counted nor refused.
 */
final class CallLimit implements ServerInterceptor {
  private final int maxCalls;
  private final Semaphore permits;
  private final String what;
  private final AtomicLong refused = new AtomicLong();
  private final Set<String> exempt;

  CallLimit(int maxCalls, String what, Set<String> exemptMethods) {
    if (maxCalls < 1) {
      throw new IllegalArgumentException("maxCalls must be positive, got " + maxCalls);
    }
    this.maxCalls = maxCalls;
    this.permits = new Semaphore(maxCalls);
    this.what = what;
    this.exempt = Set.copyOf(exemptMethods);
  }

  /** Counted calls running now. */
  int inFlight() {
    return maxCalls - permits.availablePermits();
  }

  /** Calls refused so far because the limit was reached. */
  long refused() {
    return refused.get();
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    if (exempt.contains(call.getMethodDescriptor().getFullMethodName())) {
      return next.startCall(call, headers);
    }
    if (!permits.tryAcquire()) {
      refused.incrementAndGet();
      call.close(Status.RESOURCE_EXHAUSTED.withDescription(what + " is busy: " + maxCalls
          + " calls in flight; retry later, or raise the limit if this member is not overloaded"), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release = () -> {
      if (released.compareAndSet(false, true)) {
        permits.release();
      }
    };
    ServerCall<Q, A> counted = new SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        try {
          super.close(status, trailers);
        } finally {
          release.run();
        }
      }
    };
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(counted, headers);
    } catch (RuntimeException e) {
      release.run();
      throw e;
    }
    return new SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onCancel() {
        try {
          super.onCancel();
        } finally {
          release.run();
        }
      }

      @Override
      public void onComplete() {
        try {
          super.onComplete();
        } finally {
          release.run();
        }
      }
    };
  }
}
