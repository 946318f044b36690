package dev.nacre.node.cluster.peer;

import dev.nacre.consensus.tls.ReloadingTls;
import dev.nacre.consensus.tls.SecretDerivedTls;
import dev.nacre.consensus.tls.TlsFiles;
import dev.nacre.node.config.MemberAddress;
import java.util.Optional;
import javax.net.ssl.SSLException;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.ClientAuth;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContextBuilder;

/**
 * The peer port's TLS for one member: its certificate (derived from the cluster secret, or an
 * operator's) and the authorities it trusts, for its server and for its calls.
 *
 * <p>Built apart from {@link PeerAuth} because it is the slow part of a start: a key pair, two
 * signatures and the first use of the TLS providers took a restart about a third of a second of
 * its main thread before the peer port could open, so a node builds it on a thread of its own
 * while the rest of the start goes on.
 *
 * @param operatorCertificates whether the certificates are an operator's, which name hosts rather
 *     than member addresses
 */
public record PeerTls(SslContext server, SslContext client, boolean operatorCertificates) {

  /**
   * Issues {@code self} (a member address, {@code host:port}) its certificate, derived from the
   * secret, or takes the operator's certificates from {@code files}.
   */
  public static PeerTls create(String secret, MemberAddress self, Optional<TlsFiles> files) {
    if (secret == null || secret.length() < 16) {
      throw new IllegalArgumentException("the cluster secret must have at least 16 characters; set nacre.cluster.secret");
    }
    try {
      if (files.isPresent()) {
        ReloadingTls tls = new ReloadingTls(files.get()); // new certificates apply to new connections
        return new PeerTls(
            GrpcSslContexts.configure(SslContextBuilder.forServer(tls.keyManager()))
                .trustManager(tls.trustManager()).clientAuth(ClientAuth.REQUIRE).build(),
            GrpcSslContexts.forClient().keyManager(tls.keyManager()).trustManager(tls.trustManager()).build(),
            true);
      }
      SecretDerivedTls tls = SecretDerivedTls.issue(secret, self.toString(), self.host());
      return new PeerTls(
          GrpcSslContexts.configure(SslContextBuilder.forServer(tls.memberKey(), tls.memberCertificate()))
              .trustManager(tls.authority()).clientAuth(ClientAuth.REQUIRE).build(),
          GrpcSslContexts.forClient().keyManager(tls.memberKey(), tls.memberCertificate())
              .trustManager(tls.authority()).build(),
          false);
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalStateException("cannot set up TLS for the peer port of " + self + files.map(
          f -> ": check " + f + " (PEM; the key unencrypted PKCS#8)").orElse(
          ": this JVM's TLS provider refused the secret-derived certificates"), e);
    }
  }
}
