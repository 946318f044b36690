package dev.nacre.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/** The admin CLI's calls to one node's HTTP Open API, each failure turned into a message an operator can act on. */
final class AdminHttp {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private final String server;
  private final Duration timeout;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final ObjectMapper mapper = new ObjectMapper();

  /** A call that did not get the answer it needed; {@code exitCode} 2 when the node was not reached. */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int exitCode;

    Failure(String message, int exitCode) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  AdminHttp(String server) {
    this(server, TIMEOUT);
  }

  /** @param timeout how long one call may take before it fails */
  AdminHttp(String server, Duration timeout) {
    this.server = server;
    this.timeout = timeout;
  }

  /** The body of a successful answer, as text. */
  String call(String method, String path, Map<String, String> params) {
    String query = params.entrySet().stream()
        .filter(e -> e.getValue() != null && !e.getValue().isEmpty())
        .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
        .collect(Collectors.joining("&"));
    URI uri = URI.create("http://" + server + path + (query.isEmpty() ? "" : "?" + query));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
        .method(method, HttpRequest.BodyPublishers.noBody()).build();
    HttpResponse<String> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (ConnectException e) {
      throw new Failure("cannot reach a Nacre node at " + server + ": nothing listens there (start one with"
          + " scripts/run.sh, or give --server host:port of a running node)", 2);
    } catch (IOException e) {
      throw new Failure("cannot talk to " + server + ": " + e, 2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure("interrupted while calling " + server, 2);
    }
    if (response.statusCode() >= 300) {
      throw new Failure(server + " answered " + method + " " + path + " with " + response.statusCode() + ": "
          + response.body().strip(), 1);
    }
    return response.body();
  }

  JsonNode json(String method, String path, Map<String, String> params) {
    String body = call(method, path, params);
    try {
      return mapper.readTree(body);
    } catch (IOException e) {
      throw new Failure(server + " answered " + path + " with something that is not JSON: " + body, 1);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
