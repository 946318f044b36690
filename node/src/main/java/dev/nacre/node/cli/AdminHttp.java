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
  static final Duration TIMEOUT = Duration.ofSeconds(10);
  private final String server;
  private final Duration timeout;
  /** Who logs in before the first call when client authentication is on; null: nobody. */
  private final Login login;
  private String accessToken;
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final ObjectMapper mapper = new ObjectMapper();

  /** A call that did not get the answer it needed; {@code exitCode} 2 when the node was not reached. */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int exitCode;
    /** The node's HTTP status; 0 when there was no answer (or the failure is not the node's). */
    final int status;

    Failure(String message, int exitCode) {
      this(message, exitCode, 0);
    }

    Failure(String message, int exitCode, int status) {
      super(message);
      this.exitCode = exitCode;
      this.status = status;
    }
  }

  /** A user and password to log in with (Nacos' {@code /nacos/v1/auth/login}). */
  record Login(String username, String password) {}

  AdminHttp(String server) {
    this(server, TIMEOUT, null);
  }

  /**
   * @param timeout how long one call may take before it fails
   * @param login who to log in as before the first call; null when the node needs no token
   */
  AdminHttp(String server, Duration timeout, Login login) {
    this.server = server;
    this.timeout = timeout;
    this.login = login;
  }

  private String accessToken() {
    if (login == null) {
      return "";
    }
    if (accessToken == null) {
      JsonNode answer = parse("/nacos/v1/auth/login", send("POST", "/nacos/v1/auth/login",
          Map.of("username", login.username(), "password", login.password()), true, false));
      accessToken = answer.path("accessToken").asText("");
      if (accessToken.isEmpty()) {
        throw new Failure(server + " logged " + login.username() + " in but gave no token: is client authentication"
            + " on there? (without it, leave out --username)", 1);
      }
    }
    return accessToken;
  }

  /** The body of a successful answer, as text; the params go in the query string. */
  String call(String method, String path, Map<String, String> params) {
    return withToken(method, path, params, false, false);
  }

  /** As {@link #call}, with the params in a form body: for contents too long for a URL. */
  String callWithForm(String method, String path, Map<String, String> params) {
    return withToken(method, path, params, true, false);
  }

  /**
   * As {@link #json}, sending empty params too ({@link #call} leaves them out): Nacos' configuration
   * search requires {@code dataId} and {@code group}, empty for "any".
   */
  JsonNode jsonKeepingEmpty(String method, String path, Map<String, String> params) {
    return parse(path, withToken(method, path, params, false, true));
  }

  private String withToken(String method, String path, Map<String, String> params, boolean form, boolean keepEmpty) {
    String token = accessToken();
    Map<String, String> sent = params;
    if (!token.isEmpty()) {
      sent = new java.util.LinkedHashMap<>(params);
      sent.put("accessToken", token);
    }
    return send(method, path, sent, form, keepEmpty);
  }

  /** @param form params in a form body (a password must not land in a URL, hence in logs) */
  private String send(String method, String path, Map<String, String> params, boolean form, boolean keepEmpty) {
    String query = params.entrySet().stream()
        .filter(e -> e.getValue() != null && (keepEmpty || !e.getValue().isEmpty()))
        .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
        .collect(Collectors.joining("&"));
    URI uri = URI.create("http://" + server + path + (query.isEmpty() || form ? "" : "?" + query));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .method(method, form ? HttpRequest.BodyPublishers.ofString(query) : HttpRequest.BodyPublishers.noBody())
        .build();
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
      String hint = response.statusCode() == 403 && login == null ? " (client authentication is on: give"
          + " --username, with the password in the environment variable " + AdminCli.PASSWORD_ENV + ")" : "";
      throw new Failure(server + " answered " + method + " " + path + " with "
          + response.statusCode() + ": " + response.body().strip() + hint, 1, response.statusCode());
    }
    return response.body();
  }

  JsonNode json(String method, String path, Map<String, String> params) {
    return parse(path, call(method, path, params));
  }

  private JsonNode parse(String path, String body) {
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
