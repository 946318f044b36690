package dev.nacre.consensus.tls;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.apache.ratis.grpc.GrpcTlsConfig;

/**
 * An operator's own certificates for the member ports, in place of the secret-derived ones: PEM
 * files, read again when they change ({@link ReloadingTls}), so that certificates are renewed
 * without a restart. Both member ports use them; servers require a client certificate and every
 * side trusts only {@code authorities}.
 *
 * @param certificateChain this member's certificate, then any intermediates (PEM); it must name
 *     the host the other members dial (a subject alternative name), and serve as both a TLS
 *     server and client certificate
 * @param privateKey its private key (PKCS#8 PEM, unencrypted)
 * @param authorities the certificate authorities a peer's certificate must chain to (PEM)
 */
public record TlsFiles(Path certificateChain, Path privateKey, Path authorities) {
  public TlsFiles {
    readable(certificateChain, "certificate chain");
    readable(privateKey, "private key");
    readable(authorities, "trusted authorities");
  }

  private static void readable(Path file, String what) {
    Objects.requireNonNull(file, what);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new IllegalArgumentException("the " + what + " file " + file.toAbsolutePath()
          + " does not exist or cannot be read: give a readable PEM file");
    }
  }

  /** Mutual TLS for Ratis' server, client and admin channels, following changes of the files. */
  public GrpcTlsConfig grpcTlsConfig() {
    ReloadingTls tls = new ReloadingTls(this);
    return new GrpcTlsConfig(tls.keyManager(), tls.trustManager(), true);
  }
}
