package dev.nacre.console;

import static dev.nacre.console.ConsolePage.field;
import static dev.nacre.console.ConsolePage.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.testkit.Http;
import java.time.Duration;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The console end to end: a real node on loopback, instances registered through its HTTP API, and
 * the page in headless Chromium. What the page does is checked against the API, not only against
 * what the page shows. A failed test leaves a screenshot and the page's DOM under
 * {@code target/console-artifacts} and names them in its message.
 */
@Timeout(120)
class ConsoleTest extends ConsoleOnOneNode {
  private static final String NS = "/nacos/v1/ns";
  private static final String SERVICE = "orders";
  private static final String EPHEMERAL = "127.0.0.1:8080";
  private static final String PERSISTENT = "127.0.0.1:8081";
  private static final Duration UI_WAIT = ConsolePage.UI_WAIT;

  @Test
  void takesAnInstanceOfflineAndOnlineAgainAndTheApiAgrees() {
    register(Map.of("ip", "127.0.0.1", "port", "8080", "clusterName", "c1", "weight", "2",
        "metadata", "{\"zone\":\"a\"}"));
    register(Map.of("ip", "127.0.0.1", "port", "8081", "ephemeral", "false", "metadata", "{\"zone\":\"b\"}"));

    page.inBrowser("ConsoleTest-offline-online", () -> {
      page.open();
      String service = "tr[data-service='" + SERVICE + "']";
      page.waitForText(field(service, "instances"), "2");
      page.waitForText(field(service, "healthy"), "2");
      page.waitForText(field(service, "clusters"), "2");
      page.click(By.cssSelector("tr[data-service='" + SERVICE + "'] button"));

      String ephemeral = instance(EPHEMERAL);
      page.waitForText(field(ephemeral, "enabled"), "true");
      assertThat(page.text(field(ephemeral, "cluster"))).isEqualTo("c1");
      assertThat(page.text(field(ephemeral, "kind"))).isEqualTo("ephemeral");
      assertThat(page.text(field(ephemeral, "weight"))).isEqualTo("2");
      assertThat(page.text(field(ephemeral, "healthy"))).isEqualTo("healthy");
      assertThat(page.text(field(ephemeral, "metadata"))).isEqualTo("zone=a");
      assertThat(page.text(field(ephemeral, "owner"))).as("the member that owns it").isEqualTo(address());
      assertThat(page.text(field(instance(PERSISTENT), "kind"))).isEqualTo("persistent");
      assertThat(page.text(field(instance(PERSISTENT), "owner"))).isEqualTo("—");

      page.click(toggle(EPHEMERAL));
      await("the API to show " + EPHEMERAL + " offline").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(EPHEMERAL).get("enabled").asBoolean()).isFalse());
      JsonNode offline = apiInstance(EPHEMERAL);
      assertThat(offline.get("weight").asDouble()).as("weight kept").isEqualTo(2.0);
      assertThat(offline.get("metadata").get("zone").asText()).as("metadata kept").isEqualTo("a");
      assertThat(consumerAddresses()).as("what consumers get").containsExactly(PERSISTENT);
      page.waitForText(field(ephemeral, "enabled"), "false");
      page.waitForText(toggle(EPHEMERAL), "Bring online");

      page.click(toggle(EPHEMERAL));
      await("the API to show " + EPHEMERAL + " online").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(EPHEMERAL).get("enabled").asBoolean()).isTrue());
      assertThat(consumerAddresses()).containsExactlyInAnyOrder(EPHEMERAL, PERSISTENT);
      page.waitForText(toggle(EPHEMERAL), "Take offline");

      // A persistent instance is replaced whole by the update: the page must send what it keeps.
      page.click(toggle(PERSISTENT));
      await("the API to show " + PERSISTENT + " offline").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(PERSISTENT).get("enabled").asBoolean()).isFalse());
      JsonNode persistent = apiInstance(PERSISTENT);
      assertThat(persistent.get("metadata").get("zone").asText()).isEqualTo("b");
      assertThat(persistent.get("healthy").asBoolean()).isTrue();
      assertThat(persistent.get("weight").asDouble()).isEqualTo(1.0);
      page.waitForText(field(instance(PERSISTENT), "enabled"), "false");
      page.click(toggle(PERSISTENT));
      await("the API to show " + PERSISTENT + " online").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(PERSISTENT).get("enabled").asBoolean()).isTrue());
      page.waitForText(field(instance(PERSISTENT), "enabled"), "true");

      assertThat(page.browser().findElement(By.id("action-error")).isDisplayed()).as("an action error shown").isFalse();
    });
  }

  @Test
  void editsAnInstancesWeightAndMetadataAndTheApiAgrees() {
    String service = "weighted";
    register(Map.of("serviceName", service, "ip", "127.0.0.1", "port", "8090", "metadata", "{\"zone\":\"a\"}"));
    Http.Response created =
        page.http().post(NS + "/service", Map.of("serviceName", "guarded", "protectThreshold", "0.5"));
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    register(Map.of("serviceName", "guarded", "ip", "127.0.0.1", "port", "8091", "healthy", "false"));
    String address = "127.0.0.1:8090";
    page.inBrowser("ConsoleTest-edit-weight", () -> {
      page.open();
      page.waitForText(field("tr[data-service='guarded']", "protection"), "0.5 (reached)");
      page.click(By.cssSelector("tr[data-service='" + service + "'] button"));
      page.waitForText(field(instance(address), "weight"), "1");
      page.click(By.cssSelector(instance(address) + " button.edit-instance"));

      // Metadata that is no JSON object is caught in the page; metadata the node refuses shows its answer.
      WebElement weight = page.browser().findElement(By.id("edit-weight"));
      WebElement metadata = page.browser().findElement(By.id("edit-metadata"));
      metadata.clear();
      metadata.sendKeys("{oops");
      page.browser().findElement(By.id("edit-save")).click();
      page.waiting(UI_WAIT).until(d -> d.findElement(By.id("edit-status")).getText().contains("not JSON"));
      metadata.clear();
      metadata.sendKeys("{\"preserved.heart.beat.interval\":\"soon\"}");
      page.browser().findElement(By.id("edit-save")).click();
      page.waiting(UI_WAIT).until(d -> d.findElement(By.id("edit-status")).getText().contains("answered 400"));
      assertThat(apiInstance(service, address).get("metadata").get("zone").asText()).as("nothing changed").isEqualTo("a");

      weight.clear();
      weight.sendKeys("7");
      metadata.clear();
      metadata.sendKeys("{\"zone\":\"b\",\"tier\":\"gold\"}");
      page.browser().findElement(By.id("edit-save")).click();
      await("the API to show the new weight").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(service, address).get("weight").asDouble()).isEqualTo(7.0));
      JsonNode edited = apiInstance(service, address);
      assertThat(edited.get("metadata").get("zone").asText()).isEqualTo("b");
      assertThat(edited.get("metadata").get("tier").asText()).isEqualTo("gold");
      assertThat(edited.get("enabled").asBoolean()).as("enabled untouched").isTrue();
      page.waitForText(field(instance(address), "weight"), "7");
      page.waiting(UI_WAIT).withMessage(() -> "waited for the page to show the new metadata")
          .until(d -> java.util.Set.of(d.findElement(field(instance(address), "metadata")).getText().split("\n"))
              .equals(java.util.Set.of("tier=gold", "zone=b")));
      assertThat(page.browser().findElement(By.id("edit-instance")).isDisplayed()).as("the form closes once saved")
          .isFalse();
    });
  }

  @Test
  void showsTheClusterMemberWithItsRaftRole() {
    JsonNode members = json(page.http().get("/nacos/v1/core/cluster/nodes", Map.of())).get("data");
    assertThat(members).hasSize(1);
    String self = members.get(0).get("address").asText();
    page.inBrowser("ConsoleTest-members", () -> {
      page.open();
      String member = "tr[data-member='" + self + "']";
      page.waitForText(field(member, "state"), "UP");
      page.waitForText(field(member, "role"), "LEADER");
      assertThat(Long.parseLong(page.text(field(member, "commit-index")))).isGreaterThanOrEqualTo(0);
      assertThat(page.text(field(member, "distro-queue"))).as("no peers, no queue").isEqualTo("—");
      assertThat(page.text(field(member, "last-sync"))).isEqualTo("—");
      assertThat(page.text(field(member, "leader"))).isNotEmpty().isNotEqualTo("none");
      assertThat(page.text(By.id("served-by"))).isEqualTo("served by " + address());
    });
  }

  @Test
  void showsAnApiErrorInThePageAndClearsItOnceTheReadWorks() {
    register(Map.of("ip", "127.0.0.1", "port", "9090", "serviceName", "billing"));
    page.inBrowser("ConsoleTest-api-error", () -> {
      page.open();
      page.waitForText(field("tr[data-service='billing']", "instances"), "1");

      WebElement group = page.browser().findElement(By.id("group"));
      group.clear();
      group.sendKeys("bad group!");
      By status = By.id("services-status");
      page.waiting(UI_WAIT).until(d -> d.findElement(status).getText().contains("answered 400"));
      assertThat(page.text(status)).contains("/nacos/v1/ns/catalog/services").contains("groupName");
      assertThat(page.browser().findElement(status).getAttribute("class")).contains("error");
      assertThat(page.browser().findElements(By.cssSelector("#services tbody tr"))).as("rows of a failed read")
          .isEmpty();
      assertThat(page.text(By.id("updated"))).contains("1 of 7 reads failed");

      group.clear();
      group.sendKeys("DEFAULT_GROUP");
      page.waitForText(field("tr[data-service='billing']", "instances"), "1");
      page.waiting(UI_WAIT).withMessage(() -> "waited for the services' error to clear")
          .until(d -> d.findElement(status).getText().isEmpty() && !d.findElement(status).getAttribute("class").contains("error"));
    });
  }

  // ---- the API ----

  private void register(Map<String, String> params) {
    Map<String, String> all = new java.util.HashMap<>(Map.of("serviceName", SERVICE));
    all.putAll(params);
    Http.Response r = page.http().post(NS + "/instance", all);
    assertThat(r.status()).as("register %s: %s", all, r.body()).isEqualTo(200);
  }

  private String address() {
    return page.base().substring("http://".length());
  }

  /** The instance as the console's own list shows it (offline ones included). */
  private JsonNode apiInstance(String address) {
    return apiInstance(SERVICE, address);
  }

  private JsonNode apiInstance(String service, String address) {
    JsonNode list = json(page.http().get(NS + "/catalog/instances",
        Map.of("serviceName", service, "pageSize", "100"))).get("list");
    return StreamSupport.stream(list.spliterator(), false)
        .filter(i -> (i.get("ip").asText() + ":" + i.get("port").asInt()).equals(address))
        .findFirst()
        .orElseThrow(() -> new AssertionError(address + " is not in the catalog list: " + list));
  }

  /** What a consumer's query returns: enabled instances only. */
  private java.util.List<String> consumerAddresses() {
    JsonNode hosts = json(page.http().get(NS + "/instance/list", Map.of("serviceName", SERVICE))).get("hosts");
    return StreamSupport.stream(hosts.spliterator(), false)
        .map(i -> i.get("ip").asText() + ":" + i.get("port").asInt())
        .sorted()
        .toList();
  }


  // ---- the page ----

  private static String instance(String address) {
    return "tr[data-instance='" + address + "']";
  }

  private static By toggle(String address) {
    return By.cssSelector("tr[data-instance='" + address + "'] button.toggle-enabled");
  }

}
