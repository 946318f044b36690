package dev.nacre.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.testkit.Http;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/** The console on a node with client authentication on: it asks for a login, then shows the registry. */
@Timeout(120)
class ConsoleLoginTest {
  @TempDir Path dir;

  @Test
  void asksForALoginThenShowsWhatTheUserMayRead() throws Exception {
    try (ConsolePage page = ConsolePage.start(dir, settings -> {
      settings.setProperty(AuthSettings.ENABLED, "true");
      settings.setProperty(AuthSettings.TOKEN_KEY, Base64.getEncoder().encodeToString(
          "the console test's 32-byte key!!".getBytes(StandardCharsets.UTF_8)));
    })) {
      Http http = page.http();
      assertThat(http.postForm("/nacos/v1/auth/users/admin", Map.of("password", "admin-pw")).status()).isEqualTo(200);
      String token = new ObjectMapper().readTree(http.postForm("/nacos/v1/auth/login",
          Map.of("username", "nacos", "password", "admin-pw")).body()).path("accessToken").asText();
      assertThat(http.post("/nacos/v1/ns/instance", Map.of("serviceName", "guarded", "ip", "127.0.0.1",
          "port", "8090", "accessToken", token)).status()).isEqualTo(200);

      page.inBrowser("ConsoleLoginTest-login", () -> {
        page.open();
        page.waiting(ConsolePage.UI_WAIT).until(d -> d.findElement(By.id("login")).isDisplayed());
        assertThat(page.text(By.id("login-status"))).contains("no access token");
        assertThat(page.browser().findElements(By.cssSelector("#services tbody tr"))).isEmpty();

        page.browser().findElement(By.id("login-user")).sendKeys("nacos");
        page.browser().findElement(By.id("login-password")).sendKeys("wrong");
        page.click(By.id("login-submit"));
        page.waiting(ConsolePage.UI_WAIT).until(d -> d.findElement(By.id("login-status")).getText()
            .contains("wrong password"));

        page.browser().findElement(By.id("login-password")).clear();
        page.browser().findElement(By.id("login-password")).sendKeys("admin-pw");
        page.click(By.id("login-submit"));
        page.waitForText(By.cssSelector("tr[data-service='guarded'] td[data-field='instances']"), "1");
        assertThat(page.text(By.id("signed-in-user"))).isEqualTo("nacos");
        assertThat(page.browser().findElement(By.id("login")).isDisplayed()).isFalse();

        page.click(By.id("logout"));
        page.waiting(ConsolePage.UI_WAIT).until(d -> d.findElement(By.id("login")).isDisplayed());
      });
    }
  }
}
