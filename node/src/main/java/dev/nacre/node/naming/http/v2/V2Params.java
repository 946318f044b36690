package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.HttpError;
import java.util.Optional;
import java.util.function.Supplier;

/** Checks that v2 does before the shared readers run, so that failures carry v2's codes. */
final class V2Params {
  static final double MAX_WEIGHT = 10000.0;

  private V2Params() {}

  static void require(ApiRequest r, String param, String type) {
    if (!r.has(param)) {
      throw V2Error.missing(param, type);
    }
  }

  /** serviceName, ip and an integer port, as Nacos' instance form requires them. */
  static void instanceIdentity(ApiRequest r) {
    require(r, "serviceName", "String");
    require(r, "ip", "String");
    require(r, "port", "Integer");
    r.intParam("port");
  }

  /** The identity plus a weight within Nacos' range and readable metadata. */
  static void instanceForm(ApiRequest r, Runnable readMetadata) {
    instanceIdentity(r);
    double weight = r.doubleParam("weight").orElse(1.0);
    if (Double.isNaN(weight) || weight < 0 || weight > MAX_WEIGHT) {
      throw new V2Error(400, V2Code.WEIGHT_ERROR,
          "instance format invalid: The weights range from 0.0 to " + MAX_WEIGHT + " (was " + weight + ")");
    }
    as(V2Code.INSTANCE_METADATA_ERROR, () -> {
      readMetadata.run();
      return null;
    });
  }

  /** Runs a shared parameter reader; its 400 gets the given v2 code. */
  static <T> T as(V2Code code, Supplier<T> read) {
    try {
      return read.get();
    } catch (HttpError e) {
      throw new V2Error(e.status(), code, e.getMessage());
    }
  }

  /** The request with one parameter set (for readers that take their inputs from a request). */
  static ApiRequest withParam(ApiRequest r, String name, String value) {
    java.util.Map<String, java.util.List<String>> params = new java.util.HashMap<>(r.params());
    params.put(name, java.util.List.of(value));
    return new ApiRequest(r.method(), r.path(), params, r.body(), r.source());
  }

  /** The instance, empty when the registry has none with this key. */
  static Optional<Instance> find(NamingOperations naming, InstanceKey key) {
    try {
      return Optional.of(naming.getInstance(key));
    } catch (NamingException e) {
      if (e.kind() == NamingException.Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
