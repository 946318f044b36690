package dev.nacre.node.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON in and out of the Open API, shaped as Nacos writes it. Thread-safe. */
public final class Json {
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};
  private final ObjectMapper mapper = new ObjectMapper();

  public ApiResponse response(Object value) {
    try {
      return ApiResponse.json(mapper.writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
    }
  }

  public JsonNode tree(String param, String text) {
    try {
      return mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw HttpError.badRequest("Param '" + param + "' is not valid JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * Nacos metadata: a JSON object of strings, or the legacy {@code k1=v1,k2=v2} form. Non-string
   * JSON values are kept as their JSON text.
   */
  public Map<String, String> metadata(String param, String text) {
    String trimmed = text.trim();
    Map<String, String> out = new LinkedHashMap<>();
    if (trimmed.startsWith("{")) {
      Map<String, Object> raw;
      try {
        raw = mapper.readValue(trimmed, MAP);
      } catch (JsonProcessingException e) {
        throw HttpError.badRequest("Param '" + param + "' is not a valid JSON object: " + e.getOriginalMessage());
      }
      raw.forEach((k, v) -> out.put(k, v == null ? "" : v instanceof String s ? s : writeText(v)));
      return out;
    }
    for (String pair : trimmed.split(",")) {
      if (pair.isBlank()) {
        continue;
      }
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw HttpError.badRequest("Param '" + param + "' must be a JSON object or k1=v1,k2=v2; got '" + text + "'");
      }
      out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return out;
  }

  /** Reads a JSON object node's fields as a string map (for metadata inside a beat). */
  public Map<String, String> stringMap(JsonNode node) {
    Map<String, String> out = new LinkedHashMap<>();
    if (node != null && node.isObject()) {
      node.properties().forEach(e -> out.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
    }
    return out;
  }

  private String writeText(Object v) {
    try {
      return mapper.writeValueAsString(v);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
