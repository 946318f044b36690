package dev.nacre.node.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.proto.nacos.Metadata;
import dev.nacre.proto.nacos.Payload;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ratis.thirdparty.com.google.protobuf.Any;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Nacos' framing: a {@link Payload} names its message kind in {@code metadata.type} and carries
 * the message as UTF-8 JSON in an {@code Any} with an empty type URL. JSON as Nacos writes it:
 * nulls omitted, unknown fields ignored. Thread-safe.
 */
public final class PayloadCodec {
  private final ObjectMapper mapper = JsonMapper.builder()
      .serializationInclusion(JsonInclude.Include.NON_NULL)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();
  /**
   * A reader per message class keeps the class's deserializer, which a lookup by class costs per
   * call. A map rather than a {@code ClassValue}: the few message classes are fixed, and the
   * class value's lookup showed in the profile (its backup path, 5% of a request's decode).
   */
  private final Map<Class<?>, ObjectReader> readers = new ConcurrentHashMap<>();

  /** The body was not JSON, or not the JSON of its message kind. */
  public static final class BadBodyException extends Exception {
    private static final long serialVersionUID = 1L;

    BadBodyException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  static String type(Payload payload) {
    return payload.getMetadata().getType();
  }

  /** The body as a JSON object. */
  ObjectNode body(Payload payload) throws BadBodyException {
    try {
      JsonNode node = mapper.readTree(payload.getBody().getValue().toByteArray());
      if (node == null || !node.isObject()) {
        throw new BadBodyException("the body is not a JSON object", null);
      }
      return (ObjectNode) node;
    } catch (JsonProcessingException e) {
      throw new BadBodyException("the body is not valid JSON: " + e.getOriginalMessage(), e);
    } catch (java.io.IOException e) {
      throw new BadBodyException("the body cannot be read: " + e.getMessage(), e);
    }
  }

  /** The body bound to a message class (a record of the fields Nacre reads). */
  public <T> T read(Payload payload, Class<T> type) throws BadBodyException {
    // One pass from bytes to the record; only a body that fails it is parsed again, as a tree,
    // to say whether it was not JSON, not an object, or not this message.
    Exception failure = null;
    try {
      T value = readers.computeIfAbsent(type, mapper::readerFor).readValue(payload.getBody().getValue().newInput());
      if (value != null) {
        return value;
      }
    } catch (java.io.IOException | IllegalArgumentException e) {
      failure = e;
    }
    body(payload);
    throw new BadBodyException("the body does not fit " + type.getSimpleName()
        + (failure == null ? "" : ": " + failure.getMessage()), failure);
  }

  public ObjectNode object() {
    return mapper.createObjectNode();
  }

  JsonNode tree(Object value) {
    return mapper.valueToTree(value);
  }

  /** A tree as JSON text, as {@link #encode} would write it. */
  public String text(JsonNode value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  public Payload encode(String type, JsonNode body) {
    byte[] json;
    try {
      json = mapper.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + type + " as JSON", e);
    }
    return Payload.newBuilder()
        .setMetadata(Metadata.newBuilder().setType(type))
        .setBody(Any.newBuilder().setValue(UnsafeByteOperations.unsafeWrap(json))) // json is ours alone
        .build();
  }
}
