package dev.nacre.consensus.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11 §1: an operator renews the member certificates by replacing the files, no restart. */
@Timeout(60)
class ReloadingTlsTest {
  @TempDir
  Path dir;

  private final AtomicLong nanos = new AtomicLong();

  @Test
  void newFilesApplyToTheNextHandshakeAndFilesThatDoNotLoadKeepTheOldOnes() throws Exception {
    TlsFiles serverFiles = write("server", "first-cluster-secret-0123", "n1");
    ReloadingTls server = new ReloadingTls(serverFiles, nanos::get);
    ReloadingTls oldClient = new ReloadingTls(write("old-client", "first-cluster-secret-0123", "n2"), nanos::get);
    ReloadingTls newClient = new ReloadingTls(write("new-client", "second-cluster-secret-456", "n2"), nanos::get);

    try (SSLServerSocket listener = listen(server)) {
      assertThat(handshake(oldClient, listener)).isEqualTo(42);
      assertThatThrownBy(() -> handshake(newClient, listener)).isInstanceOf(IOException.class);

      // The operator replaces all three files with the second authority's.
      rewrite(serverFiles, "second-cluster-secret-456", "n1");
      assertThat(handshake(oldClient, listener)).as("not looked at again within a second").isEqualTo(42);
      nanos.addAndGet(ReloadingTls.CHECK_INTERVAL_NANOS);
      assertThat(handshake(newClient, listener)).isEqualTo(42);
      assertThatThrownBy(() -> handshake(oldClient, listener)).isInstanceOf(IOException.class);

      // A half-written key does not take the port down: the second certificates stay in use.
      Files.writeString(serverFiles.privateKey(), "-----BEGIN PRIVATE KEY-----\nAAAA");
      Files.setLastModifiedTime(serverFiles.privateKey(), FileTime.from(Instant.now().plusSeconds(60)));
      nanos.addAndGet(ReloadingTls.CHECK_INTERVAL_NANOS);
      assertThat(handshake(newClient, listener)).isEqualTo(42);
    }
  }

  @Test
  void filesThatDoNotLoadAtStartAreRefusedWithTheReason() throws Exception {
    TlsFiles files = write("bad", "first-cluster-secret-0123", "n1");
    Files.writeString(files.authorities(), "not a certificate");
    assertThatThrownBy(() -> new ReloadingTls(files))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no certificate in");
  }

  private TlsFiles write(String name, String secret, String member) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(name));
    TlsFiles files = new TlsFiles(touch(folder.resolve("member.pem")), touch(folder.resolve("member.key")),
        touch(folder.resolve("ca.pem")));
    rewrite(files, secret, member);
    return files;
  }

  private static Path touch(Path file) throws IOException {
    return Files.exists(file) ? file : Files.createFile(file);
  }

  /** Writes the certificates that {@code secret} derives; each file's time moves on, as a copy's would. */
  private static void rewrite(TlsFiles files, String secret, String member) throws Exception {
    SecretDerivedTls tls = SecretDerivedTls.issue(secret, member, "127.0.0.1");
    pem(files.certificateChain(), tls.memberCertificate());
    pem(files.privateKey(), new JcaPKCS8Generator(tls.memberKey(), null));
    pem(files.authorities(), tls.authority());
  }

  private static void pem(Path file, Object value) throws IOException {
    FileTime before = Files.getLastModifiedTime(file);
    try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(value);
    }
    Files.setLastModifiedTime(file, FileTime.fromMillis(Math.max(before.toMillis() + 1000, System.currentTimeMillis())));
  }

  private static SSLContext context(ReloadingTls tls) throws Exception {
    SSLContext context = SSLContext.getInstance("TLSv1.3");
    context.init(new KeyManager[] {tls.keyManager()}, new TrustManager[] {tls.trustManager()}, null);
    return context;
  }

  /** A server that needs a client certificate and answers every connection with one byte. */
  private static SSLServerSocket listen(ReloadingTls tls) throws Exception {
    SSLServerSocket listener = (SSLServerSocket) context(tls).getServerSocketFactory()
        .createServerSocket(0, 8, InetAddress.getLoopbackAddress());
    listener.setNeedClientAuth(true);
    Thread acceptor = new Thread(() -> {
      while (!listener.isClosed()) {
        try (SSLSocket socket = (SSLSocket) listener.accept()) {
          socket.startHandshake();
          socket.getOutputStream().write(42);
          socket.getOutputStream().flush();
        } catch (IOException e) {
          // a refused handshake; the client sees it too
        }
      }
    }, "tls-test-acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
    return listener;
  }

  private static int handshake(ReloadingTls client, SSLServerSocket listener) throws Exception {
    try (Socket socket = context(client).getSocketFactory()
        .createSocket(InetAddress.getLoopbackAddress(), listener.getLocalPort())) {
      socket.setSoTimeout(10_000);
      ((SSLSocket) socket).startHandshake();
      int read = socket.getInputStream().read();
      if (read < 0) {
        throw new IOException("the server closed the connection: it refused the certificate");
      }
      return read;
    }
  }
}
