package dev.nacre.node.http;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * One HTTP request as the API handlers see it: method, path and the parameters of the query
 * string and of a form body merged (Nacos' v1 API accepts either), plus the raw body.
 */
public final class ApiRequest {
  private final String method;
  private final String path;
  private final Map<String, List<String>> params;
  private final String body;
  private final Optional<InetAddress> source;
  private Optional<String> headerToken = Optional.empty();
  private Map<String, String> headers = Map.of();
  private Function<Runnable, Runnable> closeHooks = hook -> () -> { };

  /** @param source the address the request came from, when known */
  public ApiRequest(String method, String path, Map<String, List<String>> params, String body,
      Optional<InetAddress> source) {
    this.method = method;
    this.path = path;
    this.params = params;
    this.body = body;
    this.source = source;
  }

  /** Sets the access token the request carried in a header (set once, by the dispatcher). */
  public ApiRequest withAccessToken(Optional<String> token) {
    this.headerToken = token;
    return this;
  }

  /** Sets the request's headers (set once, by the dispatcher); names are matched ignoring case. */
  public ApiRequest withHeaders(Map<String, String> headers) {
    TreeMap<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    copy.putAll(headers);
    this.headers = copy;
    return this;
  }

  /** A request header's value, empty when absent or blank. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name)).map(String::trim).filter(v -> !v.isEmpty());
  }

  /**
   * Sets how a handler hears that the client's connection closed (set once, by the dispatcher):
   * the function registers a hook and returns what unregisters it.
   */
  public ApiRequest withCloseHooks(Function<Runnable, Runnable> closeHooks) {
    this.closeHooks = closeHooks;
    return this;
  }

  /**
   * Runs {@code hook} once when the client's connection closes (at once when already closed), for
   * an answer that waits; returns what unregisters the hook, to call when answered.
   */
  public Runnable onClose(Runnable hook) {
    return closeHooks.apply(hook);
  }

  /** The client's access token: from a header, else the {@code accessToken} parameter. */
  public Optional<String> accessToken() {
    return headerToken.isPresent() ? headerToken : param("accessToken");
  }

  /** The client's address. */
  public Optional<InetAddress> source() {
    return source;
  }

  /** Every parameter with all its values, as received. */
  public Map<String, List<String>> params() {
    return params;
  }

  public String method() {
    return method;
  }

  public String path() {
    return path;
  }

  public String body() {
    return body;
  }

  /** The parameter's first value, empty when absent or blank. */
  public Optional<String> param(String name) {
    List<String> values = params.get(name);
    if (values == null || values.isEmpty()) {
      return Optional.empty();
    }
    String value = values.get(0).trim();
    return value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  public String param(String name, String fallback) {
    return param(name).orElse(fallback);
  }

  public String required(String name) {
    return param(name).orElseThrow(() -> HttpError.badRequest("Param '" + name + "' is required."));
  }

  public boolean has(String name) {
    return param(name).isPresent();
  }

  public Optional<Integer> intParam(String name) {
    return param(name).map(v -> parse(name, v, Integer::parseInt, "an integer"));
  }

  public Optional<Long> longParam(String name) {
    return param(name).map(v -> parse(name, v, Long::parseLong, "an integer"));
  }

  public Optional<Double> doubleParam(String name) {
    return param(name).map(v -> parse(name, v, Double::parseDouble, "a number"));
  }

  public Optional<Float> floatParam(String name) {
    return param(name).map(v -> parse(name, v, Float::parseFloat, "a number"));
  }

  /** Booleans as Nacos reads them: {@code true} (any case) is true, anything else false. */
  public Optional<Boolean> boolParam(String name) {
    return param(name).map(Boolean::parseBoolean);
  }

  private interface Parser<T> {
    T parse(String value);
  }

  private static <T> T parse(String name, String value, Parser<T> parser, String what) {
    try {
      return parser.parse(value);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("Param '" + name + "' must be " + what + ", got '" + value + "'.");
    }
  }
}
