package dev.nacre.naming.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.naming.api.NamingConfig;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.model.ClusterInfo;
import dev.nacre.naming.model.HealthCheckType;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.Namespace;
import dev.nacre.naming.model.ServiceInfo;
import dev.nacre.naming.model.ServiceKey;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(10)
class NamingValidatorTest {
  final NamingValidator v = new NamingValidator(NamingConfig.defaults());
  static final ServiceKey SERVICE = new ServiceKey("public", "DEFAULT_GROUP", "orders");

  static void invalid(String param, ThrowingCallable call) {
    assertThatThrownBy(call).isInstanceOfSatisfying(NamingException.class, e -> {
      assertThat(e.kind()).isEqualTo(NamingException.Kind.INVALID);
      assertThat(e.getMessage()).contains("'" + param + "'");
    });
  }

  /** {@link #invalid(String, ThrowingCallable)} for each of {@code values} given to {@code check}. */
  @SafeVarargs
  static <T> void invalid(String param, Consumer<T> check, T... values) {
    for (T value : values) {
      invalid(param, () -> check.accept(value));
    }
  }

  /** Each of {@code values} passes {@code check}. */
  @SafeVarargs
  static <T> void valid(Consumer<T> check, T... values) {
    for (T value : values) {
      assertThatCode(() -> check.accept(value)).as("%s", value).doesNotThrowAnyException();
    }
  }

  static Instance instance(String ip, int port, double weight, Map<String, String> metadata) {
    return new Instance(new InstanceKey(SERVICE, "DEFAULT", ip, port), weight, true, true, true, metadata);
  }

  @ParameterizedTest
  @ValueSource(strings = {"orders", "com.example.Orders:1.0", "a-b_c", "providers:com.foo.Bar:1.0.0:", "x@y"})
  void acceptsNacosServiceNames(String name) {
    assertThatCode(() -> v.serviceName(name)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "@orders", "a@@b", "has space", "tab\tname", "服务", "ctl\u0001"})
  void rejectsBadServiceNames(String name) {
    invalid("serviceName", () -> v.serviceName(name));
  }

  @Test
  void serviceNameLengthLimitIs512() {
    assertThatCode(() -> v.serviceName("s".repeat(512))).doesNotThrowAnyException();
    invalid("serviceName", () -> v.serviceName("s".repeat(513)));
  }

  @Test
  void groupNames() {
    valid(v::group, "DEFAULT_GROUP", "team-a.prod:v1");
    invalid("groupName", v::group, "a b", "a@@b", "g".repeat(129), "");
  }

  @Test
  void clusterNames() {
    valid(v::clusterName, "DEFAULT", "east-1");
    assertThatCode(() -> v.clusterName("east_1")).as("Nacos' server allows '_'").doesNotThrowAnyException();
    invalid("clusterName", v::clusterName, "east.1", "a,b", "c".repeat(65));
  }

  @Test
  void namespaceIds() {
    valid(v::namespaceId, "public", "3f2a-dev_1");
    invalid("namespaceId", v::namespaceId, "dev.ns", "n".repeat(65));
    invalid("namespaceName", () -> v.namespace(new Namespace("dev", "bad#name", "")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"10.0.0.1", "255.255.255.255", "::1", "fe80::1%eth0", "2001:db8::8a2e:370:7334",
      "::ffff:192.168.1.1", "1:2:3:4:5:6:7:8", "localhost", "orders-1.svc.cluster.local", "host_1.local."})
  void acceptsAddressesAndHostNames(String ip) {
    assertThatCode(() -> v.ip(ip)).doesNotThrowAnyException();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "256.0.0.1", "10.0.0", "1.2.3.4.5", "1:2:3:4:5:6:7:8:9", "1::2::3", "gggg::1",
      "-bad.host", "bad host", "a..b", "http://x"})
  void rejectsMalformedAddresses(String ip) {
    invalid("ip", () -> v.ip(ip));
  }

  @Test
  void ports() {
    valid(v::port, 1, 65535);
    invalid("port", v::port, 0, 65536, -1);
  }

  @Test
  void weights() {
    valid(v::weight, 0.0, 10000.0);
    invalid("weight", v::weight, -0.01, 10000.01, Double.NaN);
    invalid("weight", () -> v.instance(instance("10.0.0.1", 80, Double.POSITIVE_INFINITY, Map.of())));
  }

  @Test
  void metadataSizeLimitCountsJsonBytes() {
    // {"k":"<v>"} is 8 bytes plus the value.
    assertThatCode(() -> v.metadata(Map.of("k", "v".repeat(16 * 1024 - 8)))).doesNotThrowAnyException();
    invalid("metadata", () -> v.metadata(Map.of("k", "v".repeat(16 * 1024 - 7))));
    invalid("metadata", () -> v.metadata(Map.of("k", "\"".repeat(8 * 1024))));
    Map<String, String> many = new HashMap<>();
    for (int i = 0; i < 2000; i++) {
      many.put("key" + i, "value" + i);
    }
    invalid("metadata", () -> v.instance(instance("10.0.0.1", 80, 1, many)));
  }

  @Test
  void preservedTimingMustBePositiveNumbers() {
    assertThatCode(() -> v.instance(instance("10.0.0.1", 80, 1, Map.of(Instance.HEART_BEAT_TIMEOUT, "20000"))))
        .doesNotThrowAnyException();
    for (String key : new String[] {Instance.HEART_BEAT_INTERVAL, Instance.HEART_BEAT_TIMEOUT, Instance.IP_DELETE_TIMEOUT}) {
      for (String bad : new String[] {"0", "-5", "soon", "1.5", ""}) {
        invalid("metadata", () -> v.instance(instance("10.0.0.1", 80, 1, Map.of(key, bad))));
      }
    }
  }

  @Test
  void serviceSettings() {
    assertThatCode(() -> v.serviceInfo(ServiceInfo.defaults(SERVICE))).doesNotThrowAnyException();
    invalid("protectThreshold", () -> v.serviceInfo(new ServiceInfo(SERVICE, 1.5f, Map.of(), ServiceInfo.NO_SELECTOR)));
    invalid("protectThreshold", () -> v.serviceInfo(new ServiceInfo(SERVICE, -0.1f, Map.of(), ServiceInfo.NO_SELECTOR)));
    invalid("protectThreshold", () -> v.serviceInfo(new ServiceInfo(SERVICE, Float.NaN, Map.of(), ServiceInfo.NO_SELECTOR)));
  }

  @Test
  void clusterSettings() {
    assertThatCode(() -> v.cluster(ClusterInfo.defaults(SERVICE, "DEFAULT"))).doesNotThrowAnyException();
    invalid("port", () -> v.cluster(new ClusterInfo(SERVICE, "DEFAULT", HealthCheckType.TCP, "/", 0, false, Map.of())));
    invalid("healthChecker.path", () -> v.cluster(new ClusterInfo(SERVICE, "DEFAULT", HealthCheckType.HTTP, "health", 80, true, Map.of())));
  }

  @Test
  void instanceChecksEveryPart() {
    invalid("serviceName", () -> v.instance(new Instance(
        new InstanceKey(new ServiceKey("public", "DEFAULT_GROUP", "a@@b"), "DEFAULT", "10.0.0.1", 80), 1, true, true, true, Map.of())));
    invalid("clusterName", () -> v.instance(new Instance(
        new InstanceKey(SERVICE, "bad cluster", "10.0.0.1", 80), 1, true, true, true, Map.of())));
    invalid("namespaceId", () -> v.instance(new Instance(
        new InstanceKey(new ServiceKey("bad ns", "DEFAULT_GROUP", "x"), "DEFAULT", "10.0.0.1", 80), 1, true, true, true, Map.of())));
  }

  @Test
  void configRejectsNonsense() {
    var d = NamingConfig.defaults();
    assertThatThrownBy(() -> new NamingConfig(d.heartbeatScanPeriod(), d.defaultBeatInterval(),
        java.time.Duration.ofSeconds(30), java.time.Duration.ofSeconds(15), d.probePeriod(), d.probeTimeout(),
        d.probeThreads(), d.metadataMaxBytes(), d.serviceNameMaxLength(), d.cpWriteTimeout(), d.overrideRetention(), d.limits()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultIpDeleteTimeout");
    assertThatThrownBy(() -> d.withCpWriteTimeout(java.time.Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cpWriteTimeout");
  }
}
