package dev.nacre.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.Node;
import dev.nacre.node.config.NodeConfig;
import dev.nacre.node.testkit.FreePorts;
import dev.nacre.node.testkit.Http;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console end to end: a real node on loopback, instances registered through its HTTP API, and
 * the page in headless Chromium. What the page does is checked against the API, not only against
 * what the page shows. A failed test leaves a screenshot and the page's DOM under
 * {@code target/console-artifacts} and names them in its message.
 */
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleTest {
  private static final String NS = "/nacos/v1/ns";
  private static final String SERVICE = "orders";
  private static final String EPHEMERAL = "127.0.0.1:8080";
  private static final String PERSISTENT = "127.0.0.1:8081";
  /** Longer than the page's poll (3 s) plus a slow first paint on a busy machine. */
  private static final Duration UI_WAIT = Duration.ofSeconds(20);
  private static final ObjectMapper JSON = new ObjectMapper();

  private Node node;
  private Http http;
  private String base;
  private Chromium chromium;
  private WebDriver browser;

  @BeforeAll
  @Timeout(90)
  void start(@TempDir Path dir) {
    int port = FreePorts.mainPort();
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(port));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dir.resolve("node").toString());
    p.setProperty(NodeConfig.PROBE_PERIOD, "3600000");
    // Ephemeral instances registered over HTTP without beats stay healthy for the whole test.
    p.setProperty(NodeConfig.HEARTBEAT_TIMEOUT, "600000");
    p.setProperty(NodeConfig.IP_DELETE_TIMEOUT, "600000");
    node = Node.start(NodeConfig.from(p));
    base = "http://127.0.0.1:" + port;
    http = new Http(base);
    chromium = new Chromium(dir.resolve("chromium-profile"),
        Path.of(System.getProperty("nacre.console.artifacts", "target/console-artifacts")));
    browser = chromium.driver();
  }

  @AfterAll
  void stop() {
    try {
      if (chromium != null) {
        chromium.close();
      }
    } finally {
      if (node != null) {
        node.close();
      }
    }
  }

  @Test
  void takesAnInstanceOfflineAndOnlineAgainAndTheApiAgrees() {
    register(Map.of("ip", "127.0.0.1", "port", "8080", "clusterName", "c1", "weight", "2",
        "metadata", "{\"zone\":\"a\"}"));
    register(Map.of("ip", "127.0.0.1", "port", "8081", "ephemeral", "false", "metadata", "{\"zone\":\"b\"}"));

    inBrowser("offline-online", () -> {
      browser.get(base + "/nacos/");
      String service = "tr[data-service='" + SERVICE + "']";
      waitForText(field(service, "instances"), "2");
      waitForText(field(service, "healthy"), "2");
      waitForText(field(service, "clusters"), "2");
      click(By.cssSelector("tr[data-service='" + SERVICE + "'] button"));

      String ephemeral = instance(EPHEMERAL);
      waitForText(field(ephemeral, "enabled"), "true");
      assertThat(text(field(ephemeral, "cluster"))).isEqualTo("c1");
      assertThat(text(field(ephemeral, "kind"))).isEqualTo("ephemeral");
      assertThat(text(field(ephemeral, "weight"))).isEqualTo("2");
      assertThat(text(field(ephemeral, "healthy"))).isEqualTo("healthy");
      assertThat(text(field(ephemeral, "metadata"))).isEqualTo("zone=a");
      assertThat(text(field(instance(PERSISTENT), "kind"))).isEqualTo("persistent");

      click(toggle(EPHEMERAL));
      await("the API to show " + EPHEMERAL + " offline").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(EPHEMERAL).get("enabled").asBoolean()).isFalse());
      JsonNode offline = apiInstance(EPHEMERAL);
      assertThat(offline.get("weight").asDouble()).as("weight kept").isEqualTo(2.0);
      assertThat(offline.get("metadata").get("zone").asText()).as("metadata kept").isEqualTo("a");
      assertThat(consumerAddresses()).as("what consumers get").containsExactly(PERSISTENT);
      waitForText(field(ephemeral, "enabled"), "false");
      waitForText(toggle(EPHEMERAL), "Bring online");

      click(toggle(EPHEMERAL));
      await("the API to show " + EPHEMERAL + " online").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(EPHEMERAL).get("enabled").asBoolean()).isTrue());
      assertThat(consumerAddresses()).containsExactlyInAnyOrder(EPHEMERAL, PERSISTENT);
      waitForText(toggle(EPHEMERAL), "Take offline");

      // A persistent instance is replaced whole by the update: the page must send what it keeps.
      click(toggle(PERSISTENT));
      await("the API to show " + PERSISTENT + " offline").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(PERSISTENT).get("enabled").asBoolean()).isFalse());
      JsonNode persistent = apiInstance(PERSISTENT);
      assertThat(persistent.get("metadata").get("zone").asText()).isEqualTo("b");
      assertThat(persistent.get("healthy").asBoolean()).isTrue();
      assertThat(persistent.get("weight").asDouble()).isEqualTo(1.0);
      waitForText(field(instance(PERSISTENT), "enabled"), "false");
      click(toggle(PERSISTENT));
      await("the API to show " + PERSISTENT + " online").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(apiInstance(PERSISTENT).get("enabled").asBoolean()).isTrue());
      waitForText(field(instance(PERSISTENT), "enabled"), "true");

      assertThat(browser.findElement(By.id("action-error")).isDisplayed()).as("an action error shown").isFalse();
    });
  }

  @Test
  void showsTheClusterMemberWithItsRaftRole() {
    JsonNode members = json(http.get("/nacos/v1/core/cluster/nodes", Map.of())).get("data");
    assertThat(members).hasSize(1);
    String self = members.get(0).get("address").asText();
    inBrowser("members", () -> {
      browser.get(base + "/nacos/");
      String member = "tr[data-member='" + self + "']";
      waitForText(field(member, "state"), "UP");
      waitForText(field(member, "role"), "LEADER");
      assertThat(text(field(member, "leader"))).isNotEmpty().isNotEqualTo("none");
      assertThat(text(By.id("served-by"))).isEqualTo("served by " + base.substring("http://".length()));
    });
  }

  @Test
  void showsAnApiErrorInThePageAndClearsItOnceTheReadWorks() {
    register(Map.of("ip", "127.0.0.1", "port", "9090", "serviceName", "billing"));
    inBrowser("api-error", () -> {
      browser.get(base + "/nacos/");
      waitForText(field("tr[data-service='billing']", "instances"), "1");

      WebElement group = browser.findElement(By.id("group"));
      group.clear();
      group.sendKeys("bad group!");
      By status = By.id("services-status");
      wait(UI_WAIT).until(d -> d.findElement(status).getText().contains("answered 400"));
      assertThat(text(status)).contains("/nacos/v1/ns/service/list").contains("groupName");
      assertThat(browser.findElement(status).getAttribute("class")).contains("error");
      assertThat(browser.findElements(By.cssSelector("#services tbody tr"))).as("rows of a failed read").isEmpty();
      assertThat(text(By.id("updated"))).contains("1 of 4 reads failed");

      group.clear();
      group.sendKeys("DEFAULT_GROUP");
      waitForText(field("tr[data-service='billing']", "instances"), "1");
      wait(UI_WAIT).withMessage(() -> "waited for the services' error to clear")
          .until(d -> d.findElement(status).getText().isEmpty() && !d.findElement(status).getAttribute("class").contains("error"));
    });
  }

  // ---- the API ----

  private void register(Map<String, String> params) {
    Map<String, String> all = new java.util.HashMap<>(Map.of("serviceName", SERVICE));
    all.putAll(params);
    Http.Response r = http.post(NS + "/instance", all);
    assertThat(r.status()).as("register %s: %s", all, r.body()).isEqualTo(200);
  }

  /** The instance as the console's own list shows it (offline ones included). */
  private JsonNode apiInstance(String address) {
    JsonNode list = json(http.get(NS + "/catalog/instances",
        Map.of("serviceName", SERVICE, "pageSize", "100"))).get("list");
    return StreamSupport.stream(list.spliterator(), false)
        .filter(i -> (i.get("ip").asText() + ":" + i.get("port").asInt()).equals(address))
        .findFirst()
        .orElseThrow(() -> new AssertionError(address + " is not in the catalog list: " + list));
  }

  /** What a consumer's query returns: enabled instances only. */
  private java.util.List<String> consumerAddresses() {
    JsonNode hosts = json(http.get(NS + "/instance/list", Map.of("serviceName", SERVICE))).get("hosts");
    return StreamSupport.stream(hosts.spliterator(), false)
        .map(i -> i.get("ip").asText() + ":" + i.get("port").asInt())
        .sorted()
        .toList();
  }

  private static JsonNode json(Http.Response r) {
    assertThat(r.status()).as("API answer: %s", r.body()).isEqualTo(200);
    try {
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + r.body(), e);
    }
  }

  // ---- the page ----

  private static String instance(String address) {
    return "tr[data-instance='" + address + "']";
  }

  private static By toggle(String address) {
    return By.cssSelector("tr[data-instance='" + address + "'] button.toggle-enabled");
  }

  /** A cell of a row, by its data-field. */
  private static By field(String row, String name) {
    return By.cssSelector(row + " td[data-field='" + name + "']");
  }

  private WebDriverWait wait(Duration timeout) {
    WebDriverWait wait = new WebDriverWait(browser, timeout, Duration.ofMillis(100));
    // Polling re-renders a table when its data changes; an element read mid-swap is read again.
    wait.ignoring(NoSuchElementException.class).ignoring(StaleElementReferenceException.class);
    return wait;
  }

  private String text(By by) {
    return wait(UI_WAIT).until(d -> d.findElement(by).getText());
  }

  private void waitForText(By by, String expected) {
    wait(UI_WAIT)
        .withMessage(() -> "waited " + UI_WAIT.toSeconds() + " s for " + by + " to read '" + expected + "'")
        .until(d -> d.findElement(by).getText().equals(expected));
  }

  /** Clicks once: a stale or not yet clickable element is found again (such a click never happened). */
  private void click(By by) {
    wait(UI_WAIT).ignoring(ElementNotInteractableException.class)
        .withMessage(() -> "waited " + UI_WAIT.toSeconds() + " s to click " + by)
        .until(d -> {
          d.findElement(by).click();
          return true;
        });
  }

  @FunctionalInterface
  private interface Steps {
    void run() throws Exception;
  }

  /** Runs browser steps; a failure saves what the page showed and says where. */
  private void inBrowser(String name, Steps steps) {
    try {
      steps.run();
    } catch (Throwable t) {
      String shot = chromium.saveArtifacts(getClass().getSimpleName() + "-" + name);
      throw new AssertionError("console test '" + name + "' failed: " + t.getMessage()
          + "\n  screenshot: " + shot + " (the page's DOM beside it as .html, chromedriver.log in the same folder)", t);
    }
  }
}
