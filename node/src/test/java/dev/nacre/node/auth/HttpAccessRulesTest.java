package dev.nacre.node.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.auth.AccessControl.Need;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HttpAccessRulesTest {
  private static Optional<Need> need(String method, String path) {
    return HttpAccessRules.needOf(method, path);
  }

  @Test
  void onlyLoginTheFirstAdministratorHealthAndNonApiPathsAreOpen() {
    assertThat(need("POST", "/nacos/v1/auth/login")).isEmpty();
    assertThat(need("POST", "/nacos/v1/auth/users/login")).isEmpty();
    assertThat(need("POST", "/nacos/v1/auth/users/admin")).isEmpty();
    assertThat(need("GET", "/nacos/v1/console/health/readiness")).isEmpty();
    assertThat(need("GET", "/metrics")).isEmpty();
    assertThat(need("GET", "/nacos/v1/auth/users")).contains(Need.ADMIN);
    assertThat(need("DELETE", "/nacos/v1/auth/permissions")).contains(Need.ADMIN);
  }

  @Test
  void namingReadsAndWritesNeedTheNamespaceAndSettingsNeedTheAdministrator() {
    assertThat(need("GET", "/nacos/v1/ns/instance/list")).contains(Need.READ);
    assertThat(need("POST", "/nacos/v1/ns/instance")).contains(Need.WRITE);
    assertThat(need("PUT", "/nacos/v1/ns/instance/beat")).contains(Need.WRITE);
    assertThat(need("DELETE", "/nacos/v2/ns/instance")).contains(Need.WRITE);
    assertThat(need("GET", "/nacos/v1/ns/operator/switches")).contains(Need.USER);
    assertThat(need("PUT", "/nacos/v1/ns/operator/switches")).contains(Need.ADMIN);
    assertThat(need("POST", "/nacos/v1/console/namespaces")).contains(Need.ADMIN);
    assertThat(need("POST", "/nacre/v1/raft/snapshot")).contains(Need.ADMIN);
    assertThat(need("GET", "/nacos/v1/core/cluster/nodes")).contains(Need.USER);
  }

  @Test
  void consoleReadsOfV2NeedReadAccessAndClientViewsAndSwitchChangesTheAdministrator() {
    assertThat(need("GET", "/nacos/v2/ns/catalog/instances")).contains(Need.READ);
    assertThat(need("GET", "/nacos/v2/ns/client/service/subscriber/list")).contains(Need.READ);
    assertThat(need("GET", "/nacos/v2/ns/client/service/publisher/list")).contains(Need.READ);
    // What a client registered and subscribed spans namespaces.
    assertThat(need("GET", "/nacos/v2/ns/client/list")).contains(Need.ADMIN);
    assertThat(need("GET", "/nacos/v2/ns/client")).contains(Need.ADMIN);
    assertThat(need("GET", "/nacos/v2/ns/client/subscribe/list")).contains(Need.ADMIN);
    assertThat(need("GET", "/nacos/v2/ns/instance/statuses/dev##g@@orders")).contains(Need.READ);
    assertThat(need("PUT", "/nacos/v2/ns/operator/switches")).contains(Need.ADMIN);
  }

  @Test
  void configReadsAndLongPollsNeedReadAccessAndChangesWriteAccessToTheTenant() {
    assertThat(need("GET", "/nacos/v1/cs/configs")).contains(Need.READ);
    assertThat(need("POST", "/nacos/v1/cs/configs/listener")).contains(Need.READ);
    assertThat(need("POST", "/nacos/v1/cs/configs")).contains(Need.WRITE);
    assertThat(need("DELETE", "/nacos/v1/cs/configs")).contains(Need.WRITE);
    assertThat(need("GET", "/nacos/v1/cs/history")).contains(Need.READ);
    assertThat(need("GET", "/nacos/v2/cs/history/list")).contains(Need.READ);
    assertThat(need("POST", "/nacos/v2/cs/config")).contains(Need.WRITE);
    assertThat(HttpAccessRules.namespaceOf(new dev.nacre.node.http.ApiRequest("GET", "/nacos/v1/cs/configs",
        java.util.Map.of("tenant", java.util.List.of("dev")), "", Optional.empty()))).isEqualTo("dev");
    assertThat(HttpAccessRules.namespaceOf(new dev.nacre.node.http.ApiRequest("GET", "/nacos/v2/cs/config",
        java.util.Map.of("namespaceId", java.util.List.of("prod")), "", Optional.empty()))).isEqualTo("prod");
  }

  @Test
  void aStatusesKeyNamesTheNamespaceItReads() {
    assertThat(HttpAccessRules.namespaceOf(request("/nacos/v2/ns/instance/statuses/dev##g@@orders"))).isEqualTo("dev");
    assertThat(HttpAccessRules.namespaceOf(request("/nacos/v2/ns/instance/statuses/g@@orders"))).isEmpty();
    assertThat(HttpAccessRules.namespaceOf(new dev.nacre.node.http.ApiRequest("GET", "/nacos/v2/ns/client/list",
        java.util.Map.of("namespaceId", java.util.List.of("prod")), "", Optional.empty()))).isEqualTo("prod");
  }

  private static dev.nacre.node.http.ApiRequest request(String path) {
    return new dev.nacre.node.http.ApiRequest("GET", path, java.util.Map.of(), "", Optional.empty());
  }

  @Test
  void aPathTheRouterReadsAsAnotherRouteNeedsWhatThatRouteNeeds() {
    // The router drops one trailing slash: the rules must read the same route.
    assertThat(need("POST", "/nacos/v1/ns/instance/")).contains(Need.WRITE);
    assertThat(need("GET", "/nacos/v1/auth/users/")).contains(Need.ADMIN);
    // Anything longer than the open login path is another (admin) path, not the login.
    assertThat(need("POST", "/nacos/v1/auth/login/../users")).contains(Need.ADMIN);
  }
}
