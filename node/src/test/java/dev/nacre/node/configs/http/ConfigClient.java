package dev.nacre.node.configs.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/** Sends config API requests as Nacos' clients do (forms in bodies, headers), and reads answers. */
final class ConfigClient {
  static final ObjectMapper MAPPER = new ObjectMapper();

  record Answer(int status, String body, Map<String, String> headers) {
    Optional<String> header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(Map.Entry::getValue)
          .findFirst();
    }

    JsonNode json() {
      try {
        return MAPPER.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON (status " + status + "): " + body, e);
      }
    }
  }

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final int port;

  ConfigClient(int port) {
    this.base = "http://127.0.0.1:" + port;
    this.port = port;
  }

  int port() {
    return port;
  }

  static Map<String, String> params(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  static String form(Map<String, String> params) {
    return params.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
            + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  Answer get(String path, String... pairs) {
    return send("GET", path + "?" + form(params(pairs)), null, Map.of(), Duration.ofSeconds(15));
  }

  Answer post(String path, String... pairs) {
    return send("POST", path, form(params(pairs)), Map.of(), Duration.ofSeconds(15));
  }

  Answer delete(String path, String... pairs) {
    return send("DELETE", path + "?" + form(params(pairs)), null, Map.of(), Duration.ofSeconds(15));
  }

  /** A long poll as nacos-client 1.x sends it, answered when the server answers. */
  CompletableFuture<Answer> poll(String listening, long timeoutMillis, boolean noHangup) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Long-Pulling-Timeout", String.valueOf(timeoutMillis));
    if (noHangup) {
      headers.put("Long-Pulling-Timeout-No-Hangup", "true");
    }
    return CompletableFuture.supplyAsync(() -> send("POST", LongPolling.LISTENER,
        form(params("Listening-Configs", listening)), headers, Duration.ofMillis(timeoutMillis + 10_000)));
  }

  static String probe(String dataId, String group, String md5, String tenant) {
    return dataId + '\u0002' + group + '\u0002' + md5 + (tenant.isEmpty() ? "" : '\u0002' + tenant) + '\u0001';
  }

  Answer send(String method, String pathAndQuery, String formBody, Map<String, String> headers, Duration timeout) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(timeout);
    headers.forEach(b::header);
    if (formBody != null) {
      b.header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8");
      b.method(method, HttpRequest.BodyPublishers.ofString(formBody));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      Map<String, String> h = new LinkedHashMap<>();
      r.headers().map().forEach((k, v) -> h.put(k, v.get(0)));
      return new Answer(r.statusCode(), r.body(), h);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
