package dev.nacre.naming.health;

import dev.nacre.naming.model.ClusterInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;

/**
 * Healthy when {@code GET http://host:port<path>} answers 2xx within the timeout. Redirects are
 * not followed and no proxy is used: the instance itself must answer.
 */
public final class HttpProbe implements HealthProbe {
  private final int timeoutMillis;

  public HttpProbe(Duration timeout) {
    this.timeoutMillis = Math.toIntExact(timeout.toMillis());
  }

  @Override
  public boolean isHealthy(String host, int port, ClusterInfo cluster) {
    HttpURLConnection connection = null;
    try {
      String literal = host.contains(":") ? "[" + host + "]" : host;
      URI uri = new URI("http", null, literal, port, cluster.httpPath(), null, null);
      connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
      connection.setConnectTimeout(timeoutMillis);
      connection.setReadTimeout(timeoutMillis);
      connection.setInstanceFollowRedirects(false);
      connection.setRequestMethod("GET");
      int code = connection.getResponseCode();
      drain(connection);
      return code >= 200 && code < 300;
    } catch (IOException | URISyntaxException | IllegalArgumentException e) {
      return false;
    } finally {
      if (connection != null) {
        connection.disconnect();
      }
    }
  }

  private static void drain(HttpURLConnection connection) throws IOException {
    InputStream body = connection.getErrorStream();
    if (body == null && connection.getResponseCode() < 400) {
      body = connection.getInputStream();
    }
    if (body != null) {
      try (InputStream in = body) {
        in.readNBytes(4096);
      }
    }
  }
}
