package dev.nacre.cluster;

import dev.nacre.node.http.HttpGate;
import java.util.concurrent.locks.LockSupport;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCall;
import org.apache.ratis.thirdparty.io.grpc.ForwardingServerCallListener;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;

/**
 * Applies a {@link ClientGate} to a client gRPC port: every call is asked about when it arrives
 * (DROP closes it with {@code UNAVAILABLE} before any service sees it; HOLD parks the delivering
 * thread, then starts it), every message a client streams in, and every answer (message or close)
 * before it goes out; a DROP there closes the call with {@code UNAVAILABLE} and ends it, a HOLD
 * parks the thread that delivers or answers. With
 * {@link ClientGate#OPEN} it adds nothing but a method call per message. Register it as the
 * outermost interceptor so that it sees calls before authentication, as a network would.
 */
public final class ClientGateInterceptor implements ServerInterceptor {
  static final String DROPPED = "dropped by the client-traffic gate (fault injection)";

  private final String self;
  private final ClientGate gate;

  /** @param self the node's member address, as the gate knows it */
  public ClientGateInterceptor(String self, ClientGate gate) {
    this.self = self;
    this.gate = gate;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    if (!pass()) {
      call.close(Status.UNAVAILABLE.withDescription(DROPPED), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    GatedCall<Q, R> gated = new GatedCall<>(call);
    ServerCall.Listener<Q> delegate = next.startCall(gated, headers);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
      @Override
      public void onMessage(Q message) {
        // Each message of a client stream is a request of its own.
        if (gated.admit()) {
          super.onMessage(message);
        }
      }
    };
  }

  /** A call whose answers pass the gate; once one is dropped the call is over. */
  private final class GatedCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
    private volatile boolean dropped;

    GatedCall(ServerCall<Q, R> call) {
      super(call);
    }

    /** True to go on; on a drop, closes the call with UNAVAILABLE (once) and answers false. */
    synchronized boolean admit() {
      if (dropped) {
        return false;
      }
      if (!pass()) {
        dropped = true;
        super.close(Status.UNAVAILABLE.withDescription(DROPPED), new Metadata());
        return false;
      }
      return true;
    }

    @Override
    public void sendMessage(R message) {
      if (admit()) {
        super.sendMessage(message);
      }
    }

    @Override
    public void close(Status status, Metadata trailers) {
      if (admit()) {
        super.close(status, trailers);
      }
    }
  }

  /** Asks the gate; waits out a HOLD. True to go on, false to drop. */
  private boolean pass() {
    HttpGate.Decision d = gate.decide(self);
    if (d.action() == HttpGate.Action.HOLD) {
      LockSupport.parkNanos(d.hold().toNanos());
    }
    return d.action() != HttpGate.Action.RESET;
  }
}
