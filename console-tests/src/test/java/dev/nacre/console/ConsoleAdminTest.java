package dev.nacre.console;

import static dev.nacre.console.ConsolePage.field;
import static dev.nacre.console.ConsolePage.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.testkit.RawNacosClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The console's namespaces, subscribers and clients panels end to end: a real node on loopback, a
 * real Nacos 2.x protocol client on its gRPC port, the page in headless Chromium, and the API
 * asked whether what the page did happened.
 */
@Timeout(120)
class ConsoleAdminTest extends ConsoleOnOneNode {
  private static final String NAMESPACES = "/nacos/v1/console/namespaces";

  @Test
  void createsRenamesAndDeletesANamespaceAndTheApiAgrees() {
    page.inBrowser("ConsoleAdminTest-namespaces", () -> {
      page.open();
      page.waitForText(field(namespaceRow("public"), "name"), "public");
      assertThat(page.browser().findElement(By.cssSelector(namespaceRow("public") + " button.delete-namespace"))
          .isEnabled()).as("public cannot be deleted").isFalse();

      type("ns-id", "staging");
      type("ns-name", "Staging");
      type("ns-desc", "before release");
      page.browser().findElement(By.id("ns-submit")).click();
      await("the API to list the new namespace").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiNamespace("staging")).isPresent());
      assertThat(apiNamespace("staging").orElseThrow().get("namespaceDesc").asText()).isEqualTo("before release");
      page.waitForText(field(namespaceRow("staging"), "name"), "Staging");
      assertThat(page.text(By.id("namespace"))).as("the namespace filter offers it").contains("Staging (staging)");

      page.click(By.cssSelector(namespaceRow("staging") + " button.edit-namespace"));
      assertThat(page.browser().findElement(By.id("ns-id")).getAttribute("readonly")).as("an id cannot change")
          .isNotNull();
      type("ns-name", "Staging 2");
      page.browser().findElement(By.id("ns-submit")).click();
      await("the API to show the new name").atMost(Duration.ofSeconds(15)).untilAsserted(() ->
          assertThat(apiNamespace("staging").orElseThrow().get("namespaceShowName").asText()).isEqualTo("Staging 2"));
      page.waitForText(field(namespaceRow("staging"), "name"), "Staging 2");

      By delete = By.cssSelector(namespaceRow("staging") + " button.delete-namespace");
      page.click(delete);
      page.waitForText(delete, "Click again to delete");
      assertThat(apiNamespace("staging")).as("one click deletes nothing").isPresent();
      page.click(delete);
      await("the API to drop the namespace").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiNamespace("staging")).isEmpty());
      page.waiting(ConsolePage.UI_WAIT).withMessage(() -> "waited for the namespace's row to go")
          .until(d -> d.findElements(By.cssSelector(namespaceRow("staging"))).isEmpty());
      assertThat(page.browser().findElement(By.id("action-error")).isDisplayed()).as("an action error shown").isFalse();
    });
  }

  @Test
  void showsAServicesSubscriberAndTheConnectedClientWithWhatItRegistered() throws Exception {
    try (RawNacosClient client = new RawNacosClient(page.node().config().clientGrpcPort())) {
      client.setUp();
      // The JVM's first gRPC connection loads its classes: on a busy machine that alone takes seconds.
      client.next("SetupAckRequest", ConsolePage.UI_WAIT);
      assertThat(client.call("InstanceRequest", "{\"namespace\":\"public\",\"serviceName\":\"watched\","
          + "\"groupName\":\"DEFAULT_GROUP\",\"type\":\"registerInstance\",\"instance\":{\"ip\":\"127.0.0.1\","
          + "\"port\":6201,\"weight\":1.0,\"healthy\":true,\"enabled\":true,\"ephemeral\":true}}").resultCode())
          .isEqualTo(200);
      assertThat(client.call("SubscribeServiceRequest", "{\"namespace\":\"public\",\"serviceName\":\"watched\","
          + "\"groupName\":\"DEFAULT_GROUP\",\"subscribe\":true,\"clusters\":\"\"}").resultCode()).isEqualTo(200);
      JsonNode ids = json(page.http().get("/nacos/v2/ns/client/list", Map.of())).get("data");
      assertThat(ids).hasSize(1);
      String clientId = ids.get(0).asText();

      page.inBrowser("ConsoleAdminTest-clients", () -> {
        page.open();
        String row = "#clients tr[data-client='" + clientId + "']";
        page.waitForText(field(row, "version"), "Nacos-Java-Client:v2.5.1");
        assertThat(page.text(field(row, "registered"))).isEqualTo("public/DEFAULT_GROUP@@watched 127.0.0.1:6201");
        assertThat(page.text(field(row, "subscribed"))).isEqualTo("public/DEFAULT_GROUP@@watched");
        assertThat(page.text(field(row, "address"))).startsWith("127.0.0.1:");

        page.click(By.cssSelector("tr[data-service='watched'] button"));
        String subscriber = "#subscribers tr[data-client='" + clientId + "']";
        page.waitForText(field(subscriber, "address"), page.text(field(row, "address")));
      });

      client.call("SubscribeServiceRequest", "{\"namespace\":\"public\",\"serviceName\":\"watched\","
          + "\"groupName\":\"DEFAULT_GROUP\",\"subscribe\":false}");
      page.inBrowser("ConsoleAdminTest-unsubscribed", () -> page.waiting(ConsolePage.UI_WAIT)
          .withMessage(() -> "waited for the subscriber to leave the page")
          .until(d -> d.findElements(By.cssSelector("#subscribers tr[data-client='" + clientId + "']")).isEmpty()
              && d.findElement(By.id("subscribers-status")).getText().contains("No client")));
    }
  }

  private void type(String id, String text) {
    WebElement input = page.browser().findElement(By.id(id));
    input.clear();
    input.sendKeys(text);
  }

  private Optional<JsonNode> apiNamespace(String id) {
    JsonNode list = json(page.http().get(NAMESPACES, Map.of())).get("data");
    return StreamSupport.stream(list.spliterator(), false).filter(n -> n.get("namespace").asText().equals(id)).findFirst();
  }


  private static String namespaceRow(String id) {
    return "#namespaces tr[data-namespace='" + id + "']";
  }

}
