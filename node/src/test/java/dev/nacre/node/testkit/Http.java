package dev.nacre.node.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/** A tiny HTTP client for tests against a node on loopback. */
public final class Http {
  public record Response(int status, String body) {}

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  public Http(String base) {
    this.base = base;
  }

  public static String query(Map<String, String> params) {
    return params.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  public Response get(String path, Map<String, String> params) {
    return send("GET", path + (params.isEmpty() ? "" : "?" + query(params)), null);
  }

  public Response post(String path, Map<String, String> params) {
    return send("POST", path + "?" + query(params), null);
  }

  public Response put(String path, Map<String, String> params) {
    return send("PUT", path + "?" + query(params), null);
  }

  public Response patch(String path, Map<String, String> params) {
    return send("PATCH", path + "?" + query(params), null);
  }

  public Response delete(String path, Map<String, String> params) {
    return send("DELETE", path + "?" + query(params), null);
  }

  /** POST with a form body instead of a query string, as Nacos' Java client sends it. */
  public Response postForm(String path, Map<String, String> params) {
    return send("POST", path, query(params));
  }

  /** Sends bytes as they are over a fresh socket and returns everything the server answers. */
  public String raw(String request) {
    URI uri = URI.create(base);
    try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(15_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Response send(String method, String pathAndQuery, String formBody) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(15));
    if (formBody != null) {
      b.header("Content-Type", "application/x-www-form-urlencoded");
      b.method(method, HttpRequest.BodyPublishers.ofString(formBody));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
