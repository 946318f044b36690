package dev.nacre.naming.model;

import java.util.Map;

/**
 * Service-level settings.
 *
 * @param protectThreshold 0..1: when healthy/total falls below it, consumers get every instance
 * @param selector Nacos' selector JSON, {@code {"type":"none"}} by default
 */
public record ServiceInfo(
    ServiceKey key, float protectThreshold, Map<String, String> metadata, String selector) {
  public static final String NO_SELECTOR = "{\"type\":\"none\"}";

  public ServiceInfo {
    metadata = Map.copyOf(metadata);
  }

  public static ServiceInfo defaults(ServiceKey key) {
    return new ServiceInfo(key, 0f, Map.of(), NO_SELECTOR);
  }
}
