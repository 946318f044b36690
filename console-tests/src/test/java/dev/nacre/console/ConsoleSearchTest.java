package dev.nacre.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.testkit.Http;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;

/**
 * The console's search by service name end to end (issue 12 §2): services registered through the
 * HTTP Open API, a name fragment typed into the page in headless Chromium, and the list checked for
 * exactly the matching services. A node of its own, so no other test's services match.
 */
@Timeout(120)
class ConsoleSearchTest extends ConsoleOnOneNode {
  @Test
  void searchShowsOnlyTheServicesWhoseNameHoldsTheFragmentAndClearingShowsAllAgain() {
    register("orders-api", 7001);
    register("orders-worker", 7002);
    register("payments", 7003);

    page.inBrowser("ConsoleSearchTest-search", () -> {
      page.open();
      page.waitForServices("orders-api", "orders-worker", "payments");

      page.search("orders");
      page.waitForServices("orders-api", "orders-worker");
      assertThat(page.text(By.id("page-info"))).isEqualTo("page 1 of 1 (2 services)");

      // A part from the middle of a name matches too, not only a prefix.
      page.search("work");
      page.waitForServices("orders-worker");

      page.search("shipping");
      page.waitForServices();
      page.waitForText(By.id("services-status"), "No services in namespace public matching the search.");

      page.search("");
      page.waitForServices("orders-api", "orders-worker", "payments");
      page.waitForText(By.id("services-status"), "");
    });
  }

  private void register(String service, int port) {
    Map<String, String> params = Map.of("serviceName", service, "ip", "127.0.0.1", "port", String.valueOf(port));
    Http.Response r = page.http().post("/nacos/v1/ns/instance", params);
    assertThat(r.status()).as("register %s: %s", params, r.body()).isEqualTo(200);
  }
}
