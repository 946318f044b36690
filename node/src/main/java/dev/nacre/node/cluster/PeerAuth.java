package dev.nacre.node.cluster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proves peer calls come from a member: each call carries the sender's member id and an HMAC of
 * that id under the cluster secret. The secret itself never travels. A call without a valid proof
 * is refused with UNAUTHENTICATED; nothing is trusted because of a header alone.
 */
public final class PeerAuth {
  static final Metadata.Key<String> MEMBER = Metadata.Key.of("nacre-member", Metadata.ASCII_STRING_MARSHALLER);
  static final Metadata.Key<String> PROOF = Metadata.Key.of("nacre-proof", Metadata.ASCII_STRING_MARSHALLER);

  private final byte[] secret;
  private final Set<String> members;

  public PeerAuth(String secret, Set<String> members) {
    if (secret == null || secret.length() < 16) {
      throw new IllegalArgumentException("the cluster secret must have at least 16 characters; set nacre.cluster.secret");
    }
    this.secret = secret.getBytes(StandardCharsets.UTF_8);
    this.members = Set.copyOf(members);
  }

  String proof(String member) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(member.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  /** Adds this member's id and proof to every outgoing call. */
  public ClientInterceptor client(String self) {
    String proof = proof(self);
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(MEMBER, self);
            headers.put(PROOF, proof);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  /** Refuses calls from anyone who is not a listed member holding the secret. */
  public ServerInterceptor server() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String member = headers.get(MEMBER);
        String proof = headers.get(PROOF);
        if (member == null || proof == null || !members.contains(member)
            || !MessageDigest.isEqual(proof(member).getBytes(StandardCharsets.US_ASCII), proof.getBytes(StandardCharsets.US_ASCII))) {
          call.close(Status.UNAUTHENTICATED.withDescription(
              "peer call refused: the caller is not a member holding this cluster's secret (nacre.cluster.secret)"), new Metadata());
          return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
      }
    };
  }
}
