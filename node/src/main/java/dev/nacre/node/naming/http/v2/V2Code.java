package dev.nacre.node.naming.http.v2;

/** The error codes of Nacos' v2 Open API that naming answers with, and their messages. */
public enum V2Code {
  SUCCESS(0, "success"),
  PARAMETER_MISSING(10000, "parameter missing"),
  PARAMETER_VALIDATE_ERROR(20002, "parameter validate error"),
  RESOURCE_NOT_FOUND(20004, "resource not found"),
  RESOURCE_CONFLICT(20005, "resource conflict"),
  WEIGHT_ERROR(21001, "weight error"),
  INSTANCE_METADATA_ERROR(21002, "instance metadata error"),
  INSTANCE_ERROR(21004, "instance error"),
  SERVICE_METADATA_ERROR(21005, "service metadata error"),
  SELECTOR_ERROR(21006, "selector error"),
  SERVICE_ALREADY_EXIST(21007, "service already exist"),
  SERVICE_NOT_EXIST(21008, "service not exist"),
  SERVICE_DELETE_FAILURE(21009, "service delete failure"),
  HEALTH_CHECK_STILL_RUNNING(21011, "health check still running"),
  ILLEGAL_STATE(23000, "illegal state"),
  SERVER_ERROR(30000, "server error");

  private final int code;
  private final String message;

  V2Code(int code, String message) {
    this.code = code;
    this.message = message;
  }

  public int code() {
    return code;
  }

  public String message() {
    return message;
  }
}
