package dev.nacre.node.http;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Exact-path routing table: path, then method, to a handler. Built once, read concurrently. */
public final class Router {

  /** Handles one request; throws {@link HttpError} (or a domain error the dispatcher maps). */
  @FunctionalInterface
  public interface Handler {
    ApiResponse handle(ApiRequest request) throws Exception;
  }

  private final Map<String, Map<String, Handler>> routes = new HashMap<>();

  public Router add(String method, String path, Handler handler) {
    Handler previous = routes.computeIfAbsent(path, p -> new TreeMap<>()).put(method, handler);
    if (previous != null) {
      throw new IllegalStateException("two handlers for " + method + " " + path);
    }
    return this;
  }

  /** The handler for a request, or an {@link HttpError} of 404 or 405. */
  public Handler find(String method, String path) {
    String normalized = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    Map<String, Handler> byMethod = routes.get(normalized);
    if (byMethod == null) {
      throw HttpError.notFound("no API at " + path);
    }
    Handler handler = byMethod.get(method);
    if (handler == null) {
      throw new HttpError(405, "Request method '" + method + "' is not supported at " + path
          + "; use one of " + byMethod.keySet());
    }
    return handler;
  }
}
