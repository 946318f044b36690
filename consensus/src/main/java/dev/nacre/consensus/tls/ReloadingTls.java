package dev.nacre.consensus.tls;

import java.io.IOException;
import java.io.Reader;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Key and trust managers over an operator's {@link TlsFiles} that pick up new files without a
 * restart: before a handshake, at most once per {@link #CHECK_INTERVAL_NANOS}, they look at the
 * files' modification times and sizes, and when one changed they load all three again. New
 * connections then present and accept the new certificates; open ones keep theirs. Files that do
 * not load (say, half written) leave the previous certificates in use and are tried again at the
 * next check, with a warning in the log.
 */
public final class ReloadingTls {
  private static final Logger log = LoggerFactory.getLogger(ReloadingTls.class);
  static final long CHECK_INTERVAL_NANOS = 1_000_000_000L;
  private static final String ALIAS = "member";
  private static final char[] NO_PASSWORD = new char[0];

  private final TlsFiles files;
  private final LongSupplier nanoClock;
  private volatile Loaded current;
  private volatile long nextCheckNanos;

  /** What a file looked like when it was read: a change in either means it was replaced. */
  private record FileStamp(FileTime modified, long size) {}

  private record Loaded(List<FileStamp> stamps, X509ExtendedKeyManager keys, X509ExtendedTrustManager trust) {}

  /** Loads the files now; throws {@link IllegalArgumentException} saying which file is wrong. */
  public ReloadingTls(TlsFiles files) {
    this(files, System::nanoTime);
  }

  ReloadingTls(TlsFiles files, LongSupplier nanoClock) {
    this.files = files;
    this.nanoClock = nanoClock;
    try {
      this.current = load(stamps());
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException("cannot load the TLS files " + files + " (" + e.getMessage()
          + "): give PEM files, the key unencrypted PKCS#8", e);
    }
    this.nextCheckNanos = nanoClock.getAsLong() + CHECK_INTERVAL_NANOS;
  }

  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  public X509ExtendedTrustManager trustManager() {
    return trustManager;
  }

  private Loaded fresh() {
    long now = nanoClock.getAsLong();
    if (now - nextCheckNanos < 0) {
      return current;
    }
    synchronized (this) {
      if (now - nextCheckNanos >= 0) {
        nextCheckNanos = now + CHECK_INTERVAL_NANOS;
        reloadIfChanged();
      }
    }
    return current;
  }

  private void reloadIfChanged() {
    try {
      List<FileStamp> stamps = stamps();
      if (!stamps.equals(current.stamps())) {
        current = load(stamps);
        log.info("TLS: loaded new certificates from {}", files);
      }
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      log.warn("TLS: the files {} changed but do not load ({}); keeping the previous certificates until"
          + " they do", files, e.toString());
    }
  }

  private List<FileStamp> stamps() throws IOException {
    List<FileStamp> stamps = new ArrayList<>(3);
    for (Path file : List.of(files.certificateChain(), files.privateKey(), files.authorities())) {
      stamps.add(new FileStamp(Files.getLastModifiedTime(file), Files.size(file)));
    }
    return stamps;
  }

  private Loaded load(List<FileStamp> stamps) throws IOException, GeneralSecurityException {
    List<X509Certificate> chain = certificates(files.certificateChain());
    List<X509Certificate> authorities = certificates(files.authorities());
    if (chain.isEmpty() || authorities.isEmpty()) {
      throw new CertificateException("no certificate in " + (chain.isEmpty() ? files.certificateChain()
          : files.authorities()));
    }
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    keyStore.load(null, null);
    keyStore.setKeyEntry(ALIAS, privateKey(files.privateKey()), NO_PASSWORD, chain.toArray(X509Certificate[]::new));
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(keyStore, NO_PASSWORD);

    KeyStore trustStore = KeyStore.getInstance("PKCS12");
    trustStore.load(null, null);
    for (int i = 0; i < authorities.size(); i++) {
      trustStore.setCertificateEntry("authority-" + i, authorities.get(i));
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trustStore);
    return new Loaded(stamps, (X509ExtendedKeyManager) keys.getKeyManagers()[0],
        (X509ExtendedTrustManager) trust.getTrustManagers()[0]);
  }

  private static List<X509Certificate> certificates(Path file) throws IOException, CertificateException {
    List<X509Certificate> out = new ArrayList<>();
    JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
    try (Reader reader = Files.newBufferedReader(file); PEMParser pem = new PEMParser(reader)) {
      for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
        if (o instanceof X509CertificateHolder holder) {
          out.add(converter.getCertificate(holder));
        }
      }
    }
    return out;
  }

  private static PrivateKey privateKey(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file); PEMParser pem = new PEMParser(reader)) {
      Object o = pem.readObject();
      if (!(o instanceof PrivateKeyInfo info)) {
        throw new IOException(file + " holds no unencrypted PKCS#8 private key");
      }
      return new JcaPEMKeyConverter().getPrivateKey(info);
    }
  }

  private final X509ExtendedKeyManager keyManager = new X509ExtendedKeyManager() {
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return fresh().keys().getClientAliases(keyType, issuers);
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return fresh().keys().chooseClientAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
      return fresh().keys().chooseEngineClientAlias(keyType, issuers, engine);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return fresh().keys().getServerAliases(keyType, issuers);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return fresh().keys().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return fresh().keys().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return current.keys().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return current.keys().getPrivateKey(alias);
    }
  };

  private final X509ExtendedTrustManager trustManager = new X509ExtendedTrustManager() {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
      fresh().trust().checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
      fresh().trust().checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      fresh().trust().checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      fresh().trust().checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      fresh().trust().checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      fresh().trust().checkServerTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return current.trust().getAcceptedIssuers();
    }
  };
}
