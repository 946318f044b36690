package dev.nacre.naming.persistent;

import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * RocksDB keys of the naming column families. A key is the record's identity, each string written
 * as a 2-byte big-endian length then its UTF-8 bytes, the port as 4 bytes big-endian:
 *
 * <pre>
 * namespaces: [id]
 * services:   [namespace][group][name]
 * clusters:   [namespace][group][name][cluster]
 * instances:  [namespace][group][name][cluster][ip] port
 * overrides:  [namespace][group][name][cluster][ip] port
 * auth:       [kind][name]
 * </pre>
 *
 * Length prefixes keep keys unambiguous whatever characters a name holds. Keys are never decoded:
 * values are complete protobuf records, so loading reads values only. Records of one service are
 * contiguous, which a later per-service scan can use.
 */
final class RecordKeys {
  static final String NAMESPACES = "naming-namespaces";
  static final String SERVICES = "naming-services";
  static final String CLUSTERS = "naming-clusters";
  static final String INSTANCES = "naming-instances";
  static final String OVERRIDES = "naming-overrides";
  static final String AUTH = "naming-auth";

  private RecordKeys() {}

  static byte[] namespace(String id) {
    return new Writer().string(id).bytes();
  }

  static byte[] service(ServiceKey key) {
    return service(new Writer(), key).bytes();
  }

  static byte[] cluster(ServiceKey key, String cluster) {
    return service(new Writer(), key).string(cluster).bytes();
  }

  static byte[] instance(InstanceKey key) {
    return service(new Writer(), key.service()).string(key.cluster()).string(key.ip()).int32(key.port()).bytes();
  }

  static byte[] authRecord(String kind, String name) {
    return new Writer().string(kind).string(name).bytes();
  }

  private static Writer service(Writer w, ServiceKey key) {
    return w.string(key.namespaceId()).string(key.group()).string(key.name());
  }

  private static final class Writer {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    Writer string(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      if (b.length > 0xFFFF) {
        throw new IllegalArgumentException("name too long for a key: " + b.length + " bytes");
      }
      out.write(b.length >>> 8);
      out.write(b.length & 0xFF);
      out.writeBytes(b);
      return this;
    }

    Writer int32(int v) {
      out.write(v >>> 24);
      out.write((v >>> 16) & 0xFF);
      out.write((v >>> 8) & 0xFF);
      out.write(v & 0xFF);
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
