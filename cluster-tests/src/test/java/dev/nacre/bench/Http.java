package dev.nacre.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A thin blocking HTTP/1.1 client for the Nacos v1 Open API on loopback. One instance may be
 * shared by threads (java.net.http keeps a pool of keep-alive connections). Every call is bounded
 * by the timeout given at construction.
 */
final class Http {
  /** The status and body of one exchange; status -1 when no answer came (refused, timed out). */
  record Reply(int status, String body) {
    boolean ok() {
      return status == 200;
    }
  }

  private final HttpClient client;
  private final Duration timeout;

  Http(Duration timeout) {
    this.timeout = timeout;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2))
        .build();
  }

  Reply send(String method, String url) {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url))
        .timeout(timeout)
        .method(method, HttpRequest.BodyPublishers.noBody())
        .build();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body());
    } catch (IOException e) {
      return new Reply(-1, e.getClass().getSimpleName() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(-1, "interrupted");
    }
  }

  Reply get(String url) {
    return send("GET", url);
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** The Raft line of {@code GET /nacre/v1/status}, or null fields when the node does not answer. */
  record Status(String self, String role, String leader, long term) {}

  Status status(String base) {
    Reply r = get(base + "/nacre/v1/status");
    if (!r.ok()) {
      return new Status(base, "DOWN", null, -1);
    }
    // "127.0.0.1:18848 UP FOLLOWER leader=127.0.0.1:18868 term=2"
    String[] parts = r.body().trim().split("\\s+");
    String leader = null;
    long term = -1;
    for (String p : parts) {
      if (p.startsWith("leader=")) {
        leader = p.substring("leader=".length());
      } else if (p.startsWith("term=")) {
        term = Long.parseLong(p.substring("term=".length()));
      }
    }
    String role = parts.length > 2 ? parts[2] : "?";
    if (leader != null && (leader.isEmpty() || leader.equals("null") || leader.equals("none"))) {
      leader = null;
    }
    return new Status(parts[0], role, leader, term);
  }
}
