package dev.nacre.node.cluster.peer;

import dev.nacre.consensus.tls.SecretDerivedTls;
import dev.nacre.consensus.tls.TlsFiles;
import dev.nacre.node.config.MemberAddress;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.apache.ratis.thirdparty.io.grpc.CallOptions;
import org.apache.ratis.thirdparty.io.grpc.Channel;
import org.apache.ratis.thirdparty.io.grpc.ClientCall;
import org.apache.ratis.thirdparty.io.grpc.ClientInterceptor;
import org.apache.ratis.thirdparty.io.grpc.ForwardingClientCall;
import org.apache.ratis.thirdparty.io.grpc.Grpc;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.MethodDescriptor;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;

/**
 * Who may call the peer port: mutual TLS whose only trust root is derived from the cluster secret
 * ({@link SecretDerivedTls}, as on the Raft port), or the operator's authorities ({@link TlsFiles}),
 * so a caller without a certificate of this cluster fails the handshake before any call is read, and nothing sent on the wire can be
 * replayed (the handshake signs fresh nonces with a key that never leaves the member). Each call
 * also names its sender in a header, which must be one of the listed members and the member (or,
 * with an operator's certificates, the host) its certificate was issued for.
 */
public final class PeerAuth {
  /** What a refusal of a non-member says; a member that reads it in answers to its pings was removed. */
  public static final String NOT_A_MEMBER = "the caller is not a member of this cluster";
  static final Metadata.Key<String> MEMBER = Metadata.Key.of("nacre-member", Metadata.ASCII_STRING_MARSHALLER);

  /** This member's id, as every outgoing call names it. */
  private final String self;
  /**
   * Who may call: the current member with a given id, empty for anyone else (members change when
   * the operator adds or removes one). A lookup: the header is read on every peer call.
   */
  private final Function<String, Optional<MemberAddress>> memberById;
  private final PeerTls tls;

  /**
   * Issues {@code self} (a member address, {@code host:port}) its certificate for the peer port,
   * derived from the secret.
   *
   * @param members every member address that may call
   */
  public PeerAuth(String secret, Set<MemberAddress> members, MemberAddress self) {
    this(secret, members, self, Optional.empty());
  }

  /** As above, or with an operator's certificates ({@code files}) instead of derived ones. */
  public PeerAuth(String secret, Set<MemberAddress> members, MemberAddress self, Optional<TlsFiles> files) {
    this(PeerTls.create(secret, self, files), byId(members), self);
  }

  /**
   * With this member's TLS built already, the members being whoever {@code memberById} finds by
   * their id ({@code host:port}) at the time of each call.
   */
  public PeerAuth(PeerTls tls, Function<String, Optional<MemberAddress>> memberById, MemberAddress self) {
    this.tls = tls;
    this.memberById = memberById;
    this.self = self.toString();
  }

  private static Function<String, Optional<MemberAddress>> byId(Set<MemberAddress> members) {
    Map<String, MemberAddress> ids = members.stream().collect(Collectors.toMap(MemberAddress::toString, m -> m));
    return id -> Optional.ofNullable(ids.get(id));
  }

  /** The member a call's header names as its sender (verified once {@link #server()} admitted the call). */
  public static String sender(Metadata headers) {
    return headers.get(MEMBER);
  }

  /** TLS of the peer port's server: this member's certificate; callers must present one of this cluster. */
  public SslContext serverTls() {
    return tls.server();
  }

  /** TLS of this member's calls to peers: its certificate; servers must present one of this cluster. */
  public SslContext clientTls() {
    return tls.client();
  }

  /** Names this member as the sender of every outgoing call. */
  public ClientInterceptor client() {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(MEMBER, self);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  /**
   * Refuses a call whose sender is not a listed member, or whose certificate was issued for
   * another member than the header names.
   */
  public ServerInterceptor server() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String named = headers.get(MEMBER);
        Optional<MemberAddress> sender = named == null ? Optional.empty() : memberById.apply(named);
        Optional<X509Certificate> certificate = peerCertificate(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
        if (sender.isEmpty() || certificate.isEmpty() || !names(certificate.get(), named, sender.get().host())) {
          call.close(Status.UNAUTHENTICATED.withDescription("peer call refused: " + NOT_A_MEMBER
              + " (its certificate is for " + certificate.map(c -> c.getSubjectX500Principal().getName())
                  .orElse("nobody") + ", its header names " + named
              + "); members share nacre.cluster.secret and are listed in nacre.members, or were added with"
              + " 'nacre members add' (a removed member stays out)"), new Metadata());
          return new ServerCall.Listener<>() {};
        }
        return next.startCall(call, headers);
      }
    };
  }

  /** A verified certificate of the caller; empty without TLS or a certificate. */
  private static Optional<X509Certificate> peerCertificate(SSLSession session) {
    if (session == null) {
      return Optional.empty();
    }
    try {
      Certificate[] chain = session.getPeerCertificates();
      return chain.length > 0 && chain[0] instanceof X509Certificate leaf ? Optional.of(leaf) : Optional.empty();
    } catch (SSLPeerUnverifiedException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether {@code certificate} was issued for {@code member} (an id, {@code host:port}) on
   * {@code host}: a derived one names the member address itself; an operator's names the member
   * address or its host (common name or a subject alternative name), as certificates for hosts do.
   */
  private boolean names(X509Certificate certificate, String member, String host) {
    Optional<String> commonName = SecretDerivedTls.memberIdOf(certificate);
    if (commonName.filter(member::equals).isPresent()) {
      return true;
    }
    if (!tls.operatorCertificates()) {
      return false;
    }
    if (commonName.filter(host::equalsIgnoreCase).isPresent()) {
      return true;
    }
    try {
      Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
      return alternatives != null && alternatives.stream()
          .anyMatch(name -> name.size() == 2 && host.equalsIgnoreCase(String.valueOf(name.get(1))));
    } catch (CertificateParsingException e) {
      return false;
    }
  }
}
