package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingFactory;
import com.alibaba.nacos.api.naming.NamingService;
import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.Http;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client authentication on a real node (issue 11 §2): no default credentials, the administrator's
 * password set once, tokens on every API path, users, roles and namespace permissions kept in the
 * Raft group across a restart, and the official 1.x client logging in with username and password.
 */
@Timeout(120)
class ClientAuthTest {
  static final String KEY = Base64.getEncoder().encodeToString(
      "a test key of thirty-two bytes!!".getBytes(StandardCharsets.UTF_8));
  static final String NS = TestNode.NS;
  static final String AUTH = "/nacos/v1/auth";
  static final String ADMIN_PASSWORD = "first admin password";

  @TempDir static Path dir;
  static TestNode node;
  static String beforeAdmin;

  @BeforeAll
  static void start() {
    node = TestNode.start(dir, Map.of(AuthSettings.ENABLED, "true", AuthSettings.TOKEN_KEY, KEY));
    // Until the administrator exists, every protected call says how to set it.
    Http.Response r = node.http.get(NS + "/instance/list", Map.of("serviceName", "any"));
    beforeAdmin = r.status() + " " + r.body();
    Http.Response set = node.http.postForm(AUTH + "/users/admin", Map.of("password", ADMIN_PASSWORD));
    assertThat(set.status()).as(set.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  static String login(String user, String password) {
    Http.Response r = node.http.postForm(AUTH + "/login", Map.of("username", user, "password", password));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return TestNode.json(r).path("accessToken").asText();
  }

  static Map<String, String> with(String token, Map<String, String> params) {
    Map<String, String> m = new HashMap<>(params);
    m.put("accessToken", token);
    return m;
  }

  /** The administrator adds a user with a role that may read the public namespace; each call answers 200. */
  static void addReader(String admin, String user, String password, String role) {
    assertThat(node.http.post(AUTH + "/users", with(admin, Map.of("username", user, "password", password)))
        .status()).isEqualTo(200);
    assertThat(node.http.post(AUTH + "/roles", with(admin, Map.of("role", role, "username", user)))
        .status()).isEqualTo(200);
    assertThat(node.http.post(AUTH + "/permissions",
        with(admin, Map.of("role", role, "resource", "public:*:*", "action", "r"))).status()).isEqualTo(200);
  }

  static Map<String, String> instance(int port) {
    return Map.of("serviceName", "guarded", "ip", "127.0.0.1", "port", String.valueOf(port));
  }

  @Test
  void aNodeWithAuthOnRefusesToStartWithoutAKeyOfItsOwn() {
    Properties p = new Properties();
    p.setProperty(AuthSettings.ENABLED, "true");
    assertThatThrownBy(() -> NodeConfig.from(p)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(AuthSettings.TOKEN_KEY).hasMessageContaining("openssl rand -base64 32");
    p.setProperty(AuthSettings.TOKEN_KEY, Base64.getEncoder().encodeToString(new byte[16]));
    assertThatThrownBy(() -> NodeConfig.from(p)).hasMessageContaining("decodes to 16 bytes");
  }

  @Test
  void theAdministratorIsSetOnceAndLogsIn() {
    assertThat(beforeAdmin).startsWith("403").contains("/nacos/v1/auth/users/admin");
    Http.Response again = node.http.postForm(AUTH + "/users/admin", Map.of("password", "another"));
    assertThat(again.status()).isEqualTo(409);
    Http.Response wrong = node.http.postForm(AUTH + "/login", Map.of("username", "nacos", "password", "nope"));
    assertThat(wrong.status()).isEqualTo(403);
    assertThat(wrong.body()).contains("unknown user or wrong password");
    Http.Response ok = node.http.postForm(AUTH + "/users/login", Map.of("username", "nacos", "password", ADMIN_PASSWORD));
    JsonNode body = TestNode.json(ok);
    assertThat(body.path("accessToken").asText()).isNotEmpty();
    assertThat(body.path("tokenTtl").asLong()).isEqualTo(18_000);
    assertThat(body.path("globalAdmin").asBoolean()).isTrue();
  }

  @Test
  void everyApiPathWantsAValidTokenInAParameterOrAHeader() {
    String admin = login("nacos", ADMIN_PASSWORD);
    Http.Response none = node.http.post(NS + "/instance", instance(9001));
    assertThat(none.status()).isEqualTo(403);
    assertThat(none.body()).contains("no access token");
    Http.Response garbage = node.http.post(NS + "/instance", with("garbage", instance(9001)));
    assertThat(garbage.status()).isEqualTo(403);
    assertThat(garbage.body()).contains("token invalid");
    assertThat(node.http.post(NS + "/instance", with(admin, instance(9001))).status()).isEqualTo(200);
    assertThat(node.http.get(NS + "/instance/list", Map.of("serviceName", "guarded")).status()).isEqualTo(403);
    // A header that claims to be a Nacos server or client opens nothing.
    String spoofed = node.http.raw("GET " + NS + "/instance/list?serviceName=guarded HTTP/1.1\r\nHost: x\r\n"
        + "User-Agent: Nacos-Server\r\nConnection: close\r\n\r\n");
    assertThat(spoofed).startsWith("HTTP/1.1 403");
    String bearer = node.http.raw("GET " + NS + "/instance/list?serviceName=guarded HTTP/1.1\r\nHost: x\r\n"
        + "Authorization: Bearer " + admin + "\r\nConnection: close\r\n\r\n");
    assertThat(bearer).startsWith("HTTP/1.1 200").contains("9001");
    String header = node.http.raw("GET " + NS + "/instance/list?serviceName=guarded HTTP/1.1\r\nHost: x\r\n"
        + "accessToken: " + admin + "\r\nConnection: close\r\n\r\n");
    assertThat(header).startsWith("HTTP/1.1 200");
    // Health and metrics stay open for probes and scrapers.
    assertThat(node.http.get("/nacos/v1/console/health/readiness", Map.of()).status()).isEqualTo(200);
  }

  @Test
  void theConsolesReadsNeedReadAccessAndClientViewsAndSwitchChangesTheAdministrator() {
    String admin = login("nacos", ADMIN_PASSWORD);
    addReader(admin, "viewer", "viewer-pw", "viewers");
    assertThat(node.http.post(NS + "/instance", with(admin, Map.of("serviceName", "shown", "ip", "127.0.0.1",
        "port", "9301"))).status()).isEqualTo(200);
    String viewer = login("viewer", "viewer-pw");
    String v2 = "/nacos/v2/ns";

    assertThat(node.http.get(v2 + "/catalog/instances", with(viewer, Map.of("serviceName", "shown", "pageNo", "1",
        "pageSize", "10"))).body()).contains("9301");
    assertThat(node.http.get(NS + "/catalog/services", with(viewer, Map.of())).body()).contains("shown");
    assertThat(node.http.get(v2 + "/instance/statuses/public%23%23DEFAULT_GROUP@@shown", with(viewer, Map.of()))
        .body()).contains("127.0.0.1:9301_true");
    Http.Response otherNamespace = node.http.get(v2 + "/instance/statuses/other%23%23DEFAULT_GROUP@@shown",
        with(viewer, Map.of()));
    assertThat(otherNamespace.status()).as("the key's namespace is checked").isEqualTo(403);
    assertThat(node.http.get(v2 + "/client/service/subscriber/list", with(viewer, Map.of("serviceName", "shown")))
        .status()).isEqualTo(200);

    Http.Response clients = node.http.get(v2 + "/client/list", with(viewer, Map.of()));
    assertThat(clients.status()).isEqualTo(403);
    assertThat(clients.body()).contains("not the administrator");
    assertThat(node.http.get(v2 + "/client/list", with(admin, Map.of())).status()).isEqualTo(200);

    String current = TestNode.json(node.http.get(v2 + "/operator/switches", with(viewer, Map.of())))
        .at("/data/pushEnabled").asText();
    Map<String, String> sameValue = Map.of("entry", "pushEnabled", "value", current);
    assertThat(node.http.put(v2 + "/operator/switches", with(viewer, sameValue)).status()).isEqualTo(403);
    assertThat(node.http.put(v2 + "/operator/switches", with(admin, sameValue)).status()).isEqualTo(200);
  }

  @Test
  void usersGetWhatTheirRolesArePermittedAndKeepItAcrossARestart() {
    String admin = login("nacos", ADMIN_PASSWORD);
    addReader(admin, "alice", "alice-pw", "dev");
    assertThat(node.http.post(NS + "/instance", with(admin, instance(9101))).status()).isEqualTo(200);

    String alice = login("alice", "alice-pw");
    Http.Response read = node.http.get(NS + "/instance/list", with(alice, Map.of("serviceName", "guarded")));
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.body()).contains("9101");
    Http.Response write = node.http.post(NS + "/instance", with(alice, instance(9102)));
    assertThat(write.status()).isEqualTo(403);
    assertThat(write.body()).contains("may not write namespace public");
    assertThat(node.http.get(NS + "/instance/list", with(alice, Map.of("serviceName", "guarded",
        "namespaceId", "other"))).status()).isEqualTo(403);
    assertThat(node.http.get(AUTH + "/users", with(alice, Map.of())).status()).isEqualTo(403);

    assertThat(node.http.post(AUTH + "/permissions",
        with(admin, Map.of("role", "dev", "resource", "public:*:*", "action", "rw"))).status()).isEqualTo(200);
    assertThat(node.http.post(NS + "/instance", with(alice, instance(9102))).status()).isEqualTo(200);

    node.restart();
    String again = login("alice", "alice-pw"); // users, grants and permissions came back from RocksDB
    assertThat(node.http.post(NS + "/instance", with(again, instance(9103))).status()).isEqualTo(200);
    JsonNode roles = TestNode.json(node.http.get(AUTH + "/roles", with(login("nacos", ADMIN_PASSWORD), Map.of())));
    assertThat(roles.path("pageItems").toString()).contains("\"role\":\"dev\"").contains("ROLE_ADMIN");

    String adminAgain = login("nacos", ADMIN_PASSWORD);
    assertThat(node.http.delete(AUTH + "/users", with(adminAgain, Map.of("username", "alice"))).status())
        .isEqualTo(200);
    Http.Response gone = node.http.get(NS + "/instance/list", with(again, Map.of("serviceName", "guarded")));
    assertThat(gone.status()).isEqualTo(403);
    assertThat(gone.body()).contains("no longer exists");
    assertThat(node.http.delete(AUTH + "/users", with(adminAgain, Map.of("username", "nacos"))).status())
        .isEqualTo(400);
  }

  @Test
  void theOfficialOneXClientLogsInWithUsernameAndPassword() throws Exception {
    Properties p = new Properties();
    p.setProperty("serverAddr", "127.0.0.1:" + node.node().config().port());
    p.setProperty("username", "nacos");
    p.setProperty("password", ADMIN_PASSWORD);
    NamingService client = NamingFactory.createNamingService(p);
    Properties anonymous = new Properties();
    anonymous.setProperty("serverAddr", "127.0.0.1:" + node.node().config().port());
    NamingService stranger = NamingFactory.createNamingService(anonymous);
    try {
      client.registerInstance("one-x-guarded", "127.0.0.1", 9201);
      assertThat(client.getAllInstances("one-x-guarded", false)).extracting(i -> i.getPort()).containsExactly(9201);
      assertThatThrownBy(() -> stranger.registerInstance("one-x-guarded", "127.0.0.1", 9202))
          .isInstanceOf(NacosException.class);
    } finally {
      client.shutDown();
      stranger.shutDown();
    }
  }
}
