package dev.nacre.node.http;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP request as the API handlers see it: method, path and the parameters of the query
 * string and of a form body merged (Nacos' v1 API accepts either), plus the raw body.
 */
public final class ApiRequest {
  private final String method;
  private final String path;
  private final Map<String, List<String>> params;
  private final String body;
  private final boolean forwarded;
  private final Optional<InetAddress> source;

  /** @param forwarded true when another member forwarded it here: answer locally, never forward again */
  public ApiRequest(String method, String path, Map<String, List<String>> params, String body, boolean forwarded) {
    this(method, path, params, body, forwarded, Optional.empty());
  }

  /** @param source the address the request came from; empty when it was forwarded by a member */
  public ApiRequest(String method, String path, Map<String, List<String>> params, String body, boolean forwarded,
      Optional<InetAddress> source) {
    this.method = method;
    this.path = path;
    this.params = params;
    this.body = body;
    this.forwarded = forwarded;
    this.source = source;
  }

  /** The client's address, when the request came straight from it. */
  public Optional<InetAddress> source() {
    return source;
  }

  public boolean forwarded() {
    return forwarded;
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
