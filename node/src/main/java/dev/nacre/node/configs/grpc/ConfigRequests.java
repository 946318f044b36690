package dev.nacre.node.configs.grpc;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration requests of the Nacos 2.x/3.x client, with the fields Nacre reads (the rest
 * is skipped: {@code ignoreUnknown}). Each names a configuration by {@code dataId}, {@code group}
 * and {@code tenant}: 2.x clients send "" for the public namespace, 3.x send "public";
 * {@link ConfigKey} keeps both as one, and answers carry the tenant as the client sent it.
 */
final class ConfigRequests {
  /** The header nacos-client puts the application's tag in ({@code Vipserver-Tag}). */
  static final String TAG_HEADER = "Vipserver-Tag";

  private ConfigRequests() {}

  static ConfigKey key(String tenant, String group, String dataId) {
    if (dataId == null || dataId.isBlank()) {
      throw new ConfigException(ConfigException.Kind.INVALID, "Param 'dataId' is required.");
    }
    if (group == null || group.isBlank()) {
      throw new ConfigException(ConfigException.Kind.INVALID, "Param 'group' is required.");
    }
    return new ConfigKey(tenant, group, dataId);
  }

  /** A value the client may send as null, "" or blank when it means "none". */
  static Optional<String> present(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ConfigQueryRequest(String dataId, String group, String tenant, String tag) {
    ConfigKey key() {
      return ConfigRequests.key(tenant, group, dataId);
    }
  }

  /**
   * {@code additionMap}: appName, desc, config_tags, type, src_user, encryptedDataKey, betaIps,
   * tag are read; the client sends absent ones as null.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  record ConfigPublishRequest(String dataId, String group, String tenant, String content, String casMd5,
      Map<String, String> additionMap) {
    ConfigKey key() {
      return ConfigRequests.key(tenant, group, dataId);
    }

    String addition(String name) {
      return additionMap == null ? "" : orEmpty(additionMap.get(name));
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ConfigRemoveRequest(String dataId, String group, String tenant, String tag) {
    ConfigKey key() {
      return ConfigRequests.key(tenant, group, dataId);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ConfigListenContext(String dataId, String group, String tenant, String md5) {
    ConfigKey key() {
      return ConfigRequests.key(tenant, group, dataId);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ConfigBatchListenRequest(boolean listen, List<ConfigListenContext> configListenContexts) {
    List<ConfigListenContext> contexts() {
      return configListenContexts == null ? List.of() : configListenContexts;
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  record MetricsKey(String type, String key) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  record ClientConfigMetricRequest(List<MetricsKey> metricsKeys) {}
}
