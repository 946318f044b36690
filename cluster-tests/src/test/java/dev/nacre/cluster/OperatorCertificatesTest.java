package dev.nacre.cluster;

import static dev.nacre.cluster.LocalCluster.NS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.nacre.consensus.tls.SecretDerivedTls;
import dev.nacre.consensus.tls.TlsFiles;
import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.io.grpc.ManagedChannel;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.StatusRuntimeException;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyChannelBuilder;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code nacre.tls.cert}, {@code .key} and {@code .ca} set, both member ports use the
 * operator's certificates: the cluster forms, replicates CP and AP writes, and a certificate
 * derived from the cluster secret (what the members would use without the files) is refused on
 * both ports, so the files really are what they trust.
 */
@Timeout(120)
class OperatorCertificatesTest {
  @TempDir Path dir;

  /** An operator's authority and one certificate for host 127.0.0.1, shared by every member here. */
  private record Pki(Path cert, Path key, Path ca) {}

  private static Pki pki(Path folder) throws Exception {
    KeyPair ca = ecKeys();
    X500Name caName = new X500Name("CN=Operator test CA");
    X509Certificate caCert = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.ONE, from(), until(), caName, ca.getPublic())
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign)), ca.getPrivate());
    KeyPair host = ecKeys();
    X509Certificate hostCert = sign(new JcaX509v3CertificateBuilder(caName, BigInteger.TWO, from(), until(),
        new X500Name("CN=127.0.0.1"), host.getPublic())
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
        .addExtension(Extension.extendedKeyUsage, false,
            new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
        .addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1"))), ca.getPrivate());
    Files.createDirectories(folder);
    Pki pki = new Pki(folder.resolve("member.pem"), folder.resolve("member.key"), folder.resolve("ca.pem"));
    writePem(pki.cert(), hostCert);
    writePem(pki.key(), new JcaPKCS8Generator(host.getPrivate(), null));
    writePem(pki.ca(), caCert);
    return pki;
  }

  @Test
  void membersTalkOverTheOperatorsCertificatesAndRefuseSecretDerivedOnes() throws Exception {
    Pki pki = pki(dir);
    Map<String, String> files = Map.of("nacre.tls.cert", pki.cert().toString(),
        "nacre.tls.key", pki.key().toString(), "nacre.tls.ca", pki.ca().toString());
    try (LocalCluster c = LocalCluster.start(dir.resolve("cluster"), 3, files)) {
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> c.leader() >= 0);
      int follower = (c.leader() + 1) % 3;
      assertThat(c.http(follower).post(NS + "/instance",
          Map.of("serviceName", "cp", "ip", "127.0.6.1", "port", "80", "ephemeral", "false")).status())
          .as("a CP write through a follower (Raft port)").isEqualTo(200);
      assertThat(c.http(0).post(NS + "/instance", Map.of("serviceName", "ap", "ip", "127.0.6.2", "port", "80")).status())
          .isEqualTo(200);
      for (int i = 0; i < 3; i++) {
        int node = i;
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
          assertThat(c.hosts(node, "cp")).as("node %d", node).hasSize(1);
          assertThat(c.hosts(node, "ap")).as("node %d (Distro over the peer port)", node).hasSize(1);
        });
      }

      String secret = c.config(0).cluster().secret();
      int port = c.node(0).config().port();
      PeerAuth derived = new PeerAuth(secret, Set.of(c.member(0), c.member(1)), c.member(1));
      assertThat(ping(port + 1001, derived.clientTls(), derived))
          .as("peer port, a certificate derived from the cluster secret").isEqualTo(Status.Code.UNAVAILABLE);
      PeerAuth operator = new PeerAuth(secret, Set.of(c.member(0), c.member(1)), c.member(1),
          Optional.of(new TlsFiles(pki.cert(), pki.key(), pki.ca())));
      assertThat(ping(port + 1001, operator.clientTls(), operator)).as("peer port, the operator's").isEqualTo(Status.Code.OK);

      SecretDerivedTls own = SecretDerivedTls.issue(secret, "probe", "127.0.0.1");
      SslContext derivedToRaft = GrpcSslContexts.forClient().trustManager(pki.ca().toFile())
          .keyManager(own.memberKey(), own.memberCertificate()).build();
      // The Raft port runs Ratis' services, not the peer service: a call that gets through TLS is
      // answered UNIMPLEMENTED, one refused in the handshake UNAVAILABLE.
      assertThat(ping(port - 1000, derivedToRaft, derived))
          .as("Raft port, a certificate derived from the cluster secret").isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(ping(port - 1000, operator.clientTls(), operator))
          .as("Raft port, the operator's").isEqualTo(Status.Code.UNIMPLEMENTED);

      // Renewal: the operator replaces the files with a new authority's; no member restarts.
      Path kept = Files.createDirectories(dir.resolve("replaced"));
      Pki replaced = new Pki(Files.copy(pki.cert(), kept.resolve("member.pem")),
          Files.copy(pki.key(), kept.resolve("member.key")), Files.copy(pki.ca(), kept.resolve("ca.pem")));
      PeerAuth replacedProbe = new PeerAuth(secret, Set.of(c.member(0), c.member(1)), c.member(1),
          Optional.of(new TlsFiles(replaced.cert(), replaced.key(), replaced.ca())));
      Pki renewed = pki(dir.resolve("renewed"));
      Files.copy(renewed.cert(), pki.cert(), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(renewed.key(), pki.key(), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(renewed.ca(), pki.ca(), StandardCopyOption.REPLACE_EXISTING);
      PeerAuth renewedProbe = new PeerAuth(secret, Set.of(c.member(0), c.member(1)), c.member(1),
          Optional.of(new TlsFiles(renewed.cert(), renewed.key(), renewed.ca())));
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
        assertThat(ping(port + 1001, renewedProbe.clientTls(), renewedProbe)).as("peer port, renewed").isEqualTo(Status.Code.OK);
        assertThat(ping(port - 1000, renewedProbe.clientTls(), renewedProbe)).as("Raft port, renewed")
            .isEqualTo(Status.Code.UNIMPLEMENTED);
      });
      assertThat(ping(port + 1001, replacedProbe.clientTls(), replacedProbe)).as("peer port, the replaced authority's")
          .isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(c.http(follower).post(NS + "/instance",
          Map.of("serviceName", "cp", "ip", "127.0.6.3", "port", "80", "ephemeral", "false")).status())
          .as("CP writes go on after the renewal").isEqualTo(200);
    }
  }

  private static Status.Code ping(int port, SslContext tls, PeerAuth sender) {
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).sslContext(tls).intercept(sender.client()).build();
    try {
      PeerGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
          .ping(PingRequest.newBuilder().setFrom("127.0.0.1:1").build());
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } finally {
      channel.shutdownNow();
    }
  }

  private static KeyPair ecKeys() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key) throws Exception {
    return new JcaX509CertificateConverter().getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key)));
  }

  private static Date from() {
    return Date.from(Instant.now().minus(Duration.ofDays(1)));
  }

  private static Date until() {
    return Date.from(Instant.now().plus(Duration.ofDays(30)));
  }

  private static void writePem(Path file, Object value) throws Exception {
    try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(out)) {
      pem.writeObject(value);
    }
  }
}
