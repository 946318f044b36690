package dev.nacre.node.naming.http.v2;

import dev.nacre.naming.api.NamingException;
import dev.nacre.node.http.HttpError;

/**
 * Ends a v2 request with an HTTP status, a v2 code and a detail message, which Nacos puts in
 * {@code data}: {@code {"code":20004,"message":"resource not found","data":"..."}}.
 */
final class V2Error extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final V2Code code;

  V2Error(int status, V2Code code, String detail) {
    super(detail, null, false, false);
    this.status = status;
    this.code = code;
  }

  int status() {
    return status;
  }

  V2Code code() {
    return code;
  }

  /** As Nacos words a missing request parameter. */
  static V2Error missing(String param, String type) {
    return new V2Error(400, V2Code.PARAMETER_MISSING,
        "Required parameter '" + param + "' type " + type + " is not present");
  }

  /**
   * The v2 form of any failure: ours, the registry's (by kind; a bad weight or metadata gets its
   * own code, as in Nacos), a shared v1 parameter check's, or an unexpected one (500).
   */
  static V2Error of(Throwable e) {
    if (e instanceof V2Error v) {
      return v;
    }
    if (e instanceof NamingException n) {
      return switch (n.kind()) {
        case INVALID -> new V2Error(400, invalidCode(n.getMessage()), n.getMessage());
        case CONFLICT -> new V2Error(400, V2Code.RESOURCE_CONFLICT, n.getMessage());
        case NOT_FOUND -> new V2Error(404, V2Code.RESOURCE_NOT_FOUND, n.getMessage());
        case UNAVAILABLE -> new V2Error(503, V2Code.SERVER_ERROR, n.getMessage());
      };
    }
    if (e instanceof HttpError h) {
      V2Code code = h.status() == 404 ? V2Code.RESOURCE_NOT_FOUND
          : h.getMessage().endsWith("is required.") ? V2Code.PARAMETER_MISSING
          : invalidCode(h.getMessage());
      return new V2Error(h.status(), code, h.getMessage());
    }
    if (e instanceof IllegalArgumentException) {
      return new V2Error(400, V2Code.PARAMETER_VALIDATE_ERROR, e.getMessage());
    }
    return new V2Error(500, V2Code.SERVER_ERROR, "internal error (" + e + "); see the node log");
  }

  /** {@code NOT_FOUND} of the registry as the given answer, any other failure unchanged. */
  static RuntimeException notFoundAs(NamingException e, int status, V2Code code) {
    return e.kind() == NamingException.Kind.NOT_FOUND ? new V2Error(status, code, e.getMessage()) : e;
  }

  private static V2Code invalidCode(String message) {
    if (message.startsWith("Param 'weight'")) {
      return V2Code.WEIGHT_ERROR;
    }
    if (message.startsWith("Param 'metadata'")) {
      return V2Code.INSTANCE_METADATA_ERROR;
    }
    return V2Code.PARAMETER_VALIDATE_ERROR;
  }
}
