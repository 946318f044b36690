package dev.nacre.cluster;

import static dev.nacre.cluster.NacosClients.addresses;
import static dev.nacre.cluster.NacosClients.instance;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.alibaba.nacos.api.exception.NacosException;
import com.alibaba.nacos.api.naming.NamingService;
import com.alibaba.nacos.api.naming.pojo.Instance;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.Node;
import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.testkit.Http;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The official Nacos 2.5.1 client over gRPC against a node with client authentication on. */
@Timeout(90)
class NacosClientAuthTest {
  @TempDir Path dir;

  @Test
  void theClientLogsInAndGetsWhatItsUserIsPermitted() throws Exception {
    Map<String, String> auth = Map.of(AuthSettings.ENABLED, "true", AuthSettings.TOKEN_KEY,
        Base64.getEncoder().encodeToString("another test key of 32 bytes....".getBytes(StandardCharsets.UTF_8)));
    try (Node node = StandaloneNode.start(dir.resolve("n"), auth); NacosClients clients = new NacosClients()) {
      String server = StandaloneNode.address(node);
      Http http = new Http("http://" + server);
      assertThat(http.postForm("/nacos/v1/auth/users/admin", Map.of("password", "admin-pw")).status()).isEqualTo(200);
      String admin = new ObjectMapper().readTree(http.postForm("/nacos/v1/auth/login",
          Map.of("username", "nacos", "password", "admin-pw")).body()).path("accessToken").asText();
      assertThat(http.post("/nacos/v1/auth/users", Map.of("username", "bob", "password", "bob-pw",
          "accessToken", admin)).status()).isEqualTo(200);
      assertThat(http.post("/nacos/v1/auth/roles", Map.of("role", "reader", "username", "bob",
          "accessToken", admin)).status()).isEqualTo(200);
      assertThat(http.post("/nacos/v1/auth/permissions", Map.of("role", "reader", "resource", ":*:*",
          "action", "r", "accessToken", admin)).status()).isEqualTo(200);

      NamingService writer = clients.connectAs("nacos", "admin-pw", server);
      writer.registerInstance("guarded", instance(7101, null, 1.0, Map.of()));
      Instance persistent = instance(7102, null, 1.0, Map.of());
      persistent.setEphemeral(false);
      writer.registerInstance("guarded", persistent);
      assertThat(addresses(writer.getAllInstances("guarded", false)))
          .containsExactly("127.0.0.1:7101", "127.0.0.1:7102");

      NamingService reader = clients.connectAs("bob", "bob-pw", server);
      assertThat(addresses(reader.getAllInstances("guarded", false)))
          .containsExactly("127.0.0.1:7101", "127.0.0.1:7102");
      assertThatThrownBy(() -> reader.registerInstance("guarded", instance(7103, null, 1.0, Map.of())))
          .isInstanceOf(NacosException.class).hasMessageContaining("may not write namespace public");

      NamingService stranger = clients.connect(server);
      assertThatThrownBy(() -> stranger.getAllInstances("guarded", false))
          .isInstanceOf(NacosException.class).hasMessageContaining("no access token");
      NamingService wrongPassword = clients.connectAs("bob", "not-bobs", server);
      assertThatThrownBy(() -> wrongPassword.getAllInstances("guarded", false))
          .isInstanceOf(NacosException.class);
      assertThat(addresses(writer.getAllInstances("guarded", false)))
          .containsExactly("127.0.0.1:7101", "127.0.0.1:7102");
    }
  }
}
