package dev.nacre.node.http;

import dev.nacre.consensus.async.Completions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Exact-path routing table: path, then method, to a handler. Built once, read concurrently. */
public final class Router {
  private static final Logger log = LoggerFactory.getLogger(Router.class);

  /** Handles one request; throws {@link HttpError} (or a domain error the dispatcher maps). */
  @FunctionalInterface
  public interface Handler {
    ApiResponse handle(ApiRequest request) throws Exception;
  }

  /**
   * Handles one request through a future, for a handler that only starts its work (a forward to
   * another member, a Raft write): it may run on an event loop, so nothing before the future may wait.
   */
  @FunctionalInterface
  public interface AsyncHandler {
    CompletableFuture<ApiResponse> handle(ApiRequest request) throws Exception;
  }

  /** Looks at a request before its handler: an answer refuses it (e.g. the node is starting). */
  @FunctionalInterface
  public interface Guard {
    Optional<ApiResponse> refuse(ApiRequest request);
  }

  /**
   * Answers a domain's failure (its refusal types) in the API's terms; empty for a failure it does
   * not know. Each domain adapter adds its own, so that this core knows no domain.
   */
  @FunctionalInterface
  public interface ErrorAnswers {
    Optional<ApiResponse> answer(Throwable failure);
  }

  /** Hears every answered request: its route (the path, or "unmatched"), answer and time taken. */
  @FunctionalInterface
  public interface Observer {
    void answered(ApiRequest request, String route, ApiResponse response, long nanos);
  }

  private final Map<String, Map<String, Handler>> routes = new HashMap<>();
  /** Routes whose last path segment is a parameter ({@code /statuses/{key}}), by their prefix. */
  private final Map<String, Map<String, Handler>> prefixRoutes = new HashMap<>();
  /** Exact routes that can also answer through a future, by path and method. */
  private final Map<String, Map<String, AsyncHandler>> asyncRoutes = new HashMap<>();
  private volatile Guard guard = request -> Optional.empty();
  private volatile Observer observer = (request, route, response, nanos) -> { };
  private final List<ErrorAnswers> errorAnswers = new CopyOnWriteArrayList<>();

  /** Adds how a domain's failures are answered; asked in the order added, before the defaults. */
  public Router answerErrors(ErrorAnswers answers) {
    errorAnswers.add(java.util.Objects.requireNonNull(answers, "answers"));
    return this;
  }

  /** Sets the observer of every answered request (default: none). */
  public Router observe(Observer observer) {
    this.observer = java.util.Objects.requireNonNull(observer, "observer");
    return this;
  }

  /** Sets the guard every request passes before its handler (default: none refused). */
  public Router guard(Guard guard) {
    this.guard = java.util.Objects.requireNonNull(guard, "guard");
    return this;
  }

  public Router add(String method, String path, Handler handler) {
    Handler previous = routes.computeIfAbsent(path, p -> new TreeMap<>()).put(method, handler);
    if (previous != null) {
      throw new IllegalStateException("two handlers for " + method + " " + path);
    }
    return this;
  }

  /**
   * Adds a route that answers through a future: {@link #serveAsync} runs it without waiting, and
   * {@link #serve} (on a worker) waits for its answer.
   */
  public Router addAsync(String method, String path, AsyncHandler handler) {
    add(method, path, request -> {
      try {
        return handler.handle(request).join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    });
    asyncRoutes.computeIfAbsent(path, p -> new TreeMap<>()).put(method, handler);
    return this;
  }

  /** Whether the request's route was added with {@link #addAsync}. */
  public boolean answersAsync(ApiRequest request) {
    Map<String, AsyncHandler> byMethod = asyncRoutes.get(request.path());
    return byMethod != null && byMethod.containsKey(request.method());
  }

  /**
   * Adds a route for every path {@code prefix + segment} whose last segment is not empty and has
   * no slash; the handler reads the segment with {@link #lastSegment}. Exact routes win.
   */
  public Router addWithLastSegment(String method, String prefix, Handler handler) {
    if (!prefix.endsWith("/")) {
      throw new IllegalArgumentException("a prefix route ends with '/': " + prefix);
    }
    Handler previous = prefixRoutes.computeIfAbsent(prefix, p -> new TreeMap<>()).put(method, handler);
    if (previous != null) {
      throw new IllegalStateException("two handlers for " + method + " " + prefix + "{segment}");
    }
    return this;
  }

  /** The last path segment of a request routed by {@link #addWithLastSegment}. */
  public static String lastSegment(ApiRequest request) {
    String path = request.path();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /**
   * Runs the request's handler and maps every failure to a status with a message; never throws.
   * Blocking: call it off event loops.
   */
  public ApiResponse serve(ApiRequest request) {
    long start = System.nanoTime();
    ApiResponse response = answer(request);
    observer.answered(request, routeName(request.path()), response, System.nanoTime() - start);
    return response;
  }

  /**
   * {@link #serve} for a route added with {@link #addAsync}: the guard and the handler run on the
   * calling thread, the answer comes when the handler's future completes. Never fails.
   */
  public CompletableFuture<ApiResponse> serveAsync(ApiRequest request) {
    long start = System.nanoTime();
    return Completions.start(() -> {
      Optional<ApiResponse> refused = guard.refuse(request);
      return refused.isPresent() ? CompletableFuture.completedFuture(refused.get())
          : asyncRoutes.get(request.path()).get(request.method()).handle(request);
    }).exceptionally(e -> failed(request, Completions.cause(e))).thenApply(response -> {
      observer.answered(request, routeName(request.path()), response, System.nanoTime() - start);
      return response;
    });
  }

  private ApiResponse answer(ApiRequest request) {
    try {
      Optional<ApiResponse> refused = guard.refuse(request);
      if (refused.isPresent()) {
        return refused.get();
      }
      return find(request.method(), request.path()).handle(request);
    } catch (Exception e) {
      return failed(request, e);
    }
  }

  private ApiResponse failed(ApiRequest request, Throwable e) {
    ApiResponse response = errorAnswers.stream().map(a -> a.answer(e)).flatMap(Optional::stream).findFirst()
        .orElseGet(() -> toResponse(e));
    if (response.status() >= 500) {
      log.warn("{} {} failed: {}", request.method(), request.path(), e.toString(), e);
    } else {
      log.debug("{} {} refused: {}", request.method(), request.path(), e.getMessage());
    }
    return response;
  }

  /** Maps a failure that no domain answered to its status: our own errors, bad arguments, then 500. */
  public static ApiResponse toResponse(Throwable e) {
    if (e instanceof HttpError h) {
      return ApiResponse.error(h.status(), h.getMessage());
    }
    if (e instanceof IllegalArgumentException) {
      return ApiResponse.error(400, e.getMessage());
    }
    return ApiResponse.error(500, "internal error (" + e + "); see the node log");
  }

  /** The route's name for metrics: its path, a prefix route's pattern, or "unmatched". */
  private String routeName(String path) {
    if (routes.containsKey(path)) {
      return path;
    }
    String prefix = prefixOf(path);
    return prefix != null && prefixRoutes.containsKey(prefix) ? prefix + "{key}" : "unmatched";
  }

  /** The part of the path up to its last slash, or null when the last segment is empty. */
  private static String prefixOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 || slash == path.length() - 1 ? null : path.substring(0, slash + 1);
  }

  /** The handler for a request, or an {@link HttpError} of 404 or 405. */
  public Handler find(String method, String path) {
    String normalized = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    Map<String, Handler> byMethod = routes.get(normalized);
    if (byMethod == null) {
      String prefix = prefixOf(path);
      byMethod = prefix == null ? null : prefixRoutes.get(prefix);
    }
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
