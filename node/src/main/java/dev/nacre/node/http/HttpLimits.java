package dev.nacre.node.http;

import java.time.Duration;
import java.util.Objects;

/**
 * What one node's HTTP port takes on, with the defaults of the Tomcat that Nacos runs on where it
 * has one. A connection carries one request at a time (a pipelined one waits for the answer before
 * it; answers come back in request order).
 *
 * @param maxBodyBytes larger request bodies get 413
 * @param workerThreads handlers that may run at once in each of two pools (see {@link WaitKind}):
 *     requests that may wait for a Raft commit (up to the CP timeout), and the rest
 * @param idleTimeout a connection with no request and no answer this long is closed (Tomcat: 60 s)
 * @param maxConnections connections open at once; one more is answered 503 and closed (Tomcat: 8192)
 * @param maxConnectionsPerIp connections one IP address may hold open; one more is answered 503
 *     and closed (0: no limit, as Tomcat)
 * @param writesPerSecondPerIp requests that change the registry (any method but GET and HEAD;
 *     beats are not counted) one IP address may send per second, bursts of a second's worth
 *     included; beyond, 503 (0: no limit, as Nacos' TPS control)
 */
public record HttpLimits(int maxBodyBytes, int workerThreads, Duration idleTimeout, int maxConnections,
    int maxConnectionsPerIp, int writesPerSecondPerIp) {
  public static final int DEFAULT_MAX_BODY_BYTES = 1 << 20;
  public static final int DEFAULT_WORKER_THREADS = 32;
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_CONNECTIONS = 8192;

  public HttpLimits {
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    if (maxBodyBytes < 1 || workerThreads < 1 || maxConnections < 1 || idleTimeout.isNegative() || idleTimeout.isZero()
        || maxConnectionsPerIp < 0 || writesPerSecondPerIp < 0) {
      throw new IllegalArgumentException("HTTP limits must be positive: " + maxBodyBytes + " body bytes, "
          + workerThreads + " workers, idle " + idleTimeout + ", " + maxConnections + " connections, "
          + maxConnectionsPerIp + " per IP, " + writesPerSecondPerIp + " writes a second per IP (0: no limit)");
    }
  }

  public static HttpLimits defaults() {
    return new HttpLimits(DEFAULT_MAX_BODY_BYTES, DEFAULT_WORKER_THREADS, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, 0, 0);
  }
}
