package dev.nacre.jmh;

import dev.nacre.consensus.tls.SecretDerivedTls;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * What a member's start pays for its cluster TLS, once per port (Raft and peer): deriving the
 * authority from the secret, a fresh member key and the signed member certificate
 * ({@link SecretDerivedTls#issue}). The first issue in a JVM also loads BouncyCastle and the JDK's
 * EC code, which JMH's warm-up hides: a cold start pays about half a second more once.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ClusterTlsBenchmark {
  private static final String SECRET = "a cluster secret of benchmark length, 32+ chars";

  @Benchmark
  public SecretDerivedTls issue() {
    return SecretDerivedTls.issue(SECRET, "127.0.0.1:8848", "127.0.0.1");
  }
}
