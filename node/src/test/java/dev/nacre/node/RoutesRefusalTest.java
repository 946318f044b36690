package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.persistent.AuthRecords;
import dev.nacre.node.auth.AccessControl;
import dev.nacre.node.auth.AuthDirectory;
import dev.nacre.node.auth.HttpAccessRules;
import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.status.Readiness;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a starting node answers before it serves, with client authentication on. */
class RoutesRefusalTest {
  private final HttpAccessRules rules = new HttpAccessRules(new AccessControl(
      new AuthSettings(true, key(), Duration.ofHours(5)), new AuthDirectory(new AuthRecords(), null), Clock.systemUTC()));
  private final Readiness readiness = new Readiness(true);

  private static byte[] key() {
    byte[] key = new byte[AuthSettings.MIN_KEY_BYTES];
    Arrays.fill(key, (byte) 7);
    return key;
  }

  private Optional<ApiResponse> refusal(String path) {
    return Routes.refusal(new ApiRequest("GET", path, Map.of(), "", Optional.empty()), rules, readiness, "127.0.0.1:8848");
  }

  private static String body(Optional<ApiResponse> r) {
    return new String(r.orElseThrow().body(), StandardCharsets.UTF_8);
  }

  @Test
  void untilThePersistentStateIsReadEveryoneGets503BeforeAnyAccessCheck() {
    // The access records are not read yet: an access check now could refuse valid credentials.
    Optional<ApiResponse> early = refusal("/nacos/v1/ns/instance/list");
    assertThat(early.orElseThrow().status()).isEqualTo(503);
    assertThat(body(early)).contains("loading the persistent registry");

    readiness.persistentLoaded();
    // Read: authentication comes first again, so a refused request learns nothing of the node.
    assertThat(refusal("/nacos/v1/ns/instance/list").orElseThrow().status()).isEqualTo(403);
  }

  @Test
  void theProbesAnswerWhileTheNodeStarts() {
    assertThat(refusal("/nacos/v1/console/health/readiness")).isEmpty();
    assertThat(readiness.notReadyReason()).contains("loading the persistent registry from disk");
    readiness.persistentLoaded();
    assertThat(readiness.notReadyReason()).contains("loading the ephemeral registry from a peer");
    readiness.distro(Readiness.DistroState.LOADED);
    readiness.serving();
    assertThat(readiness.isReady()).isTrue();
    assertThat(refusal("/nacos/v1/ns/instance/list").orElseThrow().status()).isEqualTo(403);
  }
}
