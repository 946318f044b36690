package dev.nacre.consensus.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SecretDerivedTlsTest {
  private static final String SECRET = "correct horse battery staple";

  /**
   * Computed once and pinned: a change means members of different builds or JDKs would derive
   * different authorities and refuse each other.
   */
  private static final String GOLDEN_AUTHORITY_KEY =
      "3059301306072a8648ce3d020106082a8648ce3d03010703420004"
          + "b2fc42c74540109651379e054c82a020df8b46bb80ada22b72247f97b7e3f56c"
          + "d028e85a416cf16b8329c53468413fa2064f763f2d8f44fd297b9929fa19c53d";

  @Test
  void authorityIsAPureFunctionOfTheSecret() throws Exception {
    String first = hex(SecretDerivedTls.deriveAuthorityKeys(SECRET).getPublic().getEncoded());
    String again = hex(SecretDerivedTls.issue(SECRET, "m1", "127.0.0.1").authority().getPublicKey().getEncoded());
    String other = hex(SecretDerivedTls.deriveAuthorityKeys(SECRET + "!").getPublic().getEncoded());
    System.out.println("authority key of the test secret: " + first);

    assertThat(again).isEqualTo(first);
    assertThat(first).isEqualTo(GOLDEN_AUTHORITY_KEY);
    assertThat(other).isNotEqualTo(first);
  }

  @Test
  void aSecondCertificateOfOneSecretReusesItsAuthority() throws Exception {
    SecretDerivedTls raftPort = SecretDerivedTls.issue(SECRET, "127_0_0_1_8848", "127.0.0.1");
    SecretDerivedTls peerPort = SecretDerivedTls.issue(SECRET, "127.0.0.1:8848", "127.0.0.1");

    // The same certificate, not a second self-signature (which would differ: ECDSA signs with a fresh nonce).
    assertThat(peerPort.authority().getEncoded()).isEqualTo(raftPort.authority().getEncoded());
    assertThat(peerPort.memberCertificate().getEncoded()).isNotEqualTo(raftPort.memberCertificate().getEncoded());
  }

  @Test
  void membersOfOneSecretTrustEachOtherAndNoOneElse() throws Exception {
    SecretDerivedTls a = SecretDerivedTls.issue(SECRET, "a", "127.0.0.1");
    SecretDerivedTls b = SecretDerivedTls.issue(SECRET, "b", "localhost");
    SecretDerivedTls stranger = SecretDerivedTls.issue("another secret of the same length", "b", "127.0.0.1");
    X509TrustManager trustOfA = trustOnly(a.authority());

    assertThat(a.memberKey().getEncoded()).as("member keys are fresh, not derived")
        .isNotEqualTo(b.memberKey().getEncoded());
    trustOfA.checkClientTrusted(new X509Certificate[] {b.memberCertificate()}, "UNKNOWN");
    trustOfA.checkServerTrusted(new X509Certificate[] {b.memberCertificate()}, "ECDHE_ECDSA");
    assertThatThrownBy(() -> trustOfA.checkClientTrusted(
        new X509Certificate[] {stranger.memberCertificate()}, "UNKNOWN")).isInstanceOf(CertificateException.class);
    // A self-signed copy of the authority's name and a stranger's authority do not help either.
    assertThatThrownBy(() -> trustOfA.checkClientTrusted(
        new X509Certificate[] {stranger.memberCertificate(), stranger.authority()}, "UNKNOWN"))
        .isInstanceOf(CertificateException.class);
  }

  @Test
  void aCertificateNamesTheMemberItWasIssuedFor() {
    SecretDerivedTls member = SecretDerivedTls.issue(SECRET, "127.0.0.1:8848", "127.0.0.1");

    assertThat(SecretDerivedTls.memberIdOf(member.memberCertificate())).contains("127.0.0.1:8848");
    assertThat(SecretDerivedTls.memberIdOf(member.authority())).contains("Nacre Raft cluster CA (secret-derived)");
  }

  private static X509TrustManager trustOnly(X509Certificate authority) throws Exception {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    store.setCertificateEntry("ca", authority);
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return (X509TrustManager) factory.getTrustManagers()[0];
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
