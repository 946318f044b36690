package dev.nacre.consensus.tls;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Mutual TLS for the cluster's ports (Raft, P-1000, and the peer port, P+1001) whose only trust
 * root is derived from the cluster secret, so that nothing but the secret has to be distributed.
 * Each port's owner issues itself its own member certificate; they chain to the same authority.
 *
 * <p>Every member derives the same certificate authority: its P-256 private key is
 * HKDF-SHA256(secret) reduced to the curve order, computed directly (no PRNG, so it is the same
 * in every JVM and JDK). The member then issues itself a leaf certificate for a fresh random key,
 * valid for the host the others reach it at. Servers require a client certificate, and both sides
 * trust only that authority: whoever does not hold the secret cannot present a certificate the
 * others accept, so its TLS handshake fails before any Raft or client request is read. Ratis 3.2
 * can add a server interceptor ({@code GrpcServices.Customizer}) but offers no hook to add an
 * interceptor or call credentials to the channels it opens (server to server and client to
 * server take only its TLS settings), which is why authentication happens in TLS rather than
 * with an HMAC proof in gRPC metadata.
 *
 * <p>What it gives: every connection to the Raft port (Raft, client and admin services, which
 * share the port) and to the peer port (Distro, forwards, pings) is encrypted and both ends prove, inside the TLS handshake, that their
 * certificate chains to the secret's authority and that they hold its private key. A captured
 * handshake or certificate cannot be replayed (unlike an HMAC of a member id sent in metadata
 * without TLS): the handshake signs fresh nonces with the member's key, which never leaves it.
 * Nothing is trusted from headers, and nothing is Java-deserialized: certificates are DER parsed
 * by the JDK.
 *
 * <p>Limits:
 * <ul>
 *   <li>Trust is cluster-wide, not per member: every holder of the secret can mint a certificate
 *       for any member id or host. A leaked secret compromises the cluster until every member is
 *       restarted with a new one; there is no revocation and no rotation without a full restart
 *       (members with old and new secrets refuse each other).
 *   <li>Anyone who connects receives a member certificate signed by the authority, so a guess of
 *       the secret can be checked offline: a short or guessable secret can be found by search;
 *       hence the minimum length in {@code RaftConfig}. Use a long random value.
 *   <li>Clients verify the server's host: a member's certificate names only the host it lists for
 *       itself in the peers map, so every member must dial it by that same name or IP.
 *   <li>Certificates carry a fixed validity (2000 to 9999) so that no clock matters; the member
 *       key lives as long as this object (one Raft start).
 *   <li>Only gRPC ports are covered. Ratis' Netty data-stream port is not enabled here; enabling
 *       it would need its own TLS settings.
 *   <li>A member with the wrong secret just looks unreachable in Ratis' logs
 *       ({@code UNAVAILABLE: io exception} from the appender or elections), not as a refusal.
 * </ul>
 *
 * <p>Cost: about 0.5 s for the first member of a JVM (loading BouncyCastle and the JDK's EC
 * code), about 13 ms for each further one; nothing is cached across instances, so clusters with
 * different secrets in one JVM stay apart. Immutable and thread-safe.
 */
public final class SecretDerivedTls {
  private static final String CURVE = "secp256r1";
  private static final String SIGNATURE = "SHA256withECDSA";
  /** Changing this label (or the derivation) makes members of different versions refuse each other. */
  private static final byte[] KDF_SALT = "nacre-raft-ca-v1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] KDF_INFO = "p256-private-key".getBytes(StandardCharsets.US_ASCII);
  private static final X500Name CA_NAME = new X500Name("CN=Nacre Raft cluster CA (secret-derived)");
  private static final Date NOT_BEFORE = Date.from(Instant.parse("2000-01-01T00:00:00Z"));
  private static final Date NOT_AFTER = Date.from(Instant.parse("9999-12-31T23:59:59Z"));
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final X509Certificate authority;
  private final PrivateKey memberKey;
  private final X509Certificate memberCertificate;

  private SecretDerivedTls(X509Certificate authority, PrivateKey memberKey, X509Certificate memberCertificate) {
    this.authority = authority;
    this.memberKey = memberKey;
    this.memberCertificate = memberCertificate;
  }

  /**
   * Derives the cluster's authority from {@code secret} and issues {@code memberId} a certificate
   * for {@code host} (a DNS name or an IP literal, as the other members dial it).
   */
  public static SecretDerivedTls issue(String secret, String memberId, String host) {
    cheapInMemoryKeyStores();
    try {
      Authority ca = authority(secret);
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec(CURVE), new SecureRandom());
      KeyPair member = generator.generateKeyPair();
      X509Certificate memberCertificate = memberCertificate(ca.keys().getPrivate(), member.getPublic(), memberId, host);
      return new SecretDerivedTls(ca.certificate(), member.getPrivate(), memberCertificate);
    } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
      throw new IllegalStateException("cannot build the cluster TLS certificates of member " + memberId
          + ": this JDK lacks " + SIGNATURE + " on " + CURVE, e);
    }
  }

  /**
   * Netty puts the member key into a PKCS12 key store for each TLS context it builds (server,
   * client, admin: several per start), under a random password, in memory only. The JDK protects
   * such a key with 10,000 rounds of PBKDF2 twice per context, which made up a quarter of a node's
   * start on a busy machine (0.4 s per context measured). The rounds guard key store files against
   * password guessing; these stores are never written anywhere, so one round does. An operator's
   * own setting of the property is kept.
   */
  private static void cheapInMemoryKeyStores() {
    if (System.getProperty(PKCS12_ITERATIONS) == null && java.security.Security.getProperty(PKCS12_ITERATIONS) == null) {
      System.setProperty(PKCS12_ITERATIONS, "1");
    }
  }

  private static final String PKCS12_ITERATIONS = "keystore.pkcs12.keyPbeIterationCount";

  /** Server, client and admin TLS for Ratis: this member's certificate, the authority as sole trust. */
  public GrpcTlsConfig grpcTlsConfig() {
    return new GrpcTlsConfig(memberKey, memberCertificate, authority, true);
  }

  public X509Certificate authority() {
    return authority;
  }

  public X509Certificate memberCertificate() {
    return memberCertificate;
  }

  public PrivateKey memberKey() {
    return memberKey;
  }

  /**
   * The member id a certificate was issued for (its subject's common name), if it has one. Only
   * meaningful for a certificate already verified against {@link #authority()}.
   */
  public static Optional<String> memberIdOf(X509Certificate certificate) {
    RDN[] names = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()).getRDNs(BCStyle.CN);
    return names.length == 1 ? Optional.of(IETFUtils.valueToString(names[0].getFirst().getValue())) : Optional.empty();
  }

  private record Authority(String secret, KeyPair keys, X509Certificate certificate) {}

  /**
   * The authority last derived in this JVM. A node issues two certificates as it starts (its Raft
   * port's and its peer port's, on two threads); deriving and self-signing the authority once for
   * both saves a start tens of milliseconds of CPU, on the thread that starts the Raft member. A
   * pure function of the secret, so members sharing a JVM may share it; only the last is kept, so
   * nothing accumulates when secrets change.
   */
  private static Authority lastAuthority;

  private static synchronized Authority authority(String secret)
      throws GeneralSecurityException, OperatorCreationException, CertIOException {
    if (lastAuthority == null || !lastAuthority.secret().equals(secret)) {
      KeyPair keys = deriveAuthorityKeys(secret);
      lastAuthority = new Authority(secret, keys, authorityCertificate(keys));
    }
    return lastAuthority;
  }

  /** The authority's key pair: a pure function of the secret. */
  static KeyPair deriveAuthorityKeys(String secret) throws GeneralSecurityException {
    X9ECParameters curve = CustomNamedCurves.getByName(CURVE);
    BigInteger order = curve.getN();
    // 64 bytes reduced modulo a 256-bit order: the bias is below 2^-250.
    BigInteger okm = new BigInteger(1, hkdfSha256(secret.getBytes(StandardCharsets.UTF_8), 64));
    BigInteger d = okm.mod(order.subtract(BigInteger.ONE)).add(BigInteger.ONE);
    org.bouncycastle.math.ec.ECPoint q = new FixedPointCombMultiplier().multiply(curve.getG(), d).normalize();

    AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
    parameters.init(new ECGenParameterSpec(CURVE));
    ECParameterSpec spec = parameters.getParameterSpec(ECParameterSpec.class);
    KeyFactory factory = KeyFactory.getInstance("EC");
    PrivateKey privateKey = factory.generatePrivate(new ECPrivateKeySpec(d, spec));
    PublicKey publicKey = factory.generatePublic(new ECPublicKeySpec(
        new ECPoint(q.getAffineXCoord().toBigInteger(), q.getAffineYCoord().toBigInteger()), spec));
    return new KeyPair(publicKey, privateKey);
  }

  /** RFC 5869 HKDF-SHA256 with a fixed salt and info, by BouncyCastle. */
  private static byte[] hkdfSha256(byte[] inputKey, int length) {
    HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
    hkdf.init(new HKDFParameters(inputKey, KDF_SALT, KDF_INFO));
    byte[] out = new byte[length];
    hkdf.generateBytes(out, 0, length);
    return out;
  }

  private static X509Certificate authorityCertificate(KeyPair ca)
      throws GeneralSecurityException, OperatorCreationException, CertIOException {
    X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
        CA_NAME, BigInteger.ONE, NOT_BEFORE, NOT_AFTER, CA_NAME, ca.getPublic())
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
    return sign(builder, ca.getPrivate());
  }

  private static X509Certificate memberCertificate(PrivateKey caKey, PublicKey memberKey, String memberId,
      String host) throws GeneralSecurityException, OperatorCreationException, CertIOException {
    BigInteger serial = new BigInteger(127, new SecureRandom()).add(BigInteger.ONE);
    X500Name subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, memberId).build();
    X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
        CA_NAME, serial, NOT_BEFORE, NOT_AFTER, subject, memberKey)
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
        .addExtension(Extension.extendedKeyUsage, false,
            new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
        .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(hostName(host)));
    return sign(builder, caKey);
  }

  /** Clients check the server's name against its certificate, so it must name the host they dial. */
  private static GeneralName hostName(String host) {
    String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    boolean ip = IPV4.matcher(bare).matches() || bare.contains(":");
    return new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, bare);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws GeneralSecurityException, OperatorCreationException {
    return new JcaX509CertificateConverter()
        .getCertificate(builder.build(new JcaContentSignerBuilder(SIGNATURE).build(key)));
  }
}
