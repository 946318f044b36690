package dev.nacre.console;

import static dev.nacre.console.ConsolePage.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nacre.node.testkit.Http;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The console's configuration pages end to end: a real node, the page in headless Chromium, and
 * Nacos' v1 configuration API asked whether what the page published happened.
 */
@Timeout(120)
class ConsoleConfigTest extends ConsoleOnOneNode {
  private static final String CONFIGS = "/nacos/v1/cs/configs";
  private static final String FIRST = "timeout: 1\nretries: 3\nnote: <b>not markup</b>";
  private static final String SECOND = "timeout: 2\nretries: 3\nnote: <b>not markup</b>";

  @Test
  void createsSearchesEditsThroughADiffRollsBackAndDeletes() {
    assertThat(page.http().post(CONFIGS, Map.of("dataId", "payments.properties", "group", "DEFAULT_GROUP",
        "content", "currency=EUR")).body()).isEqualTo("true");

    page.inBrowser("ConsoleConfigTest-lifecycle", () -> {
      page.open();
      waitForConfigs("payments.properties");

      page.click(By.id("config-new"));
      type("config-data-id", "orders.yaml");
      new org.openqa.selenium.support.ui.Select(page.browser().findElement(By.id("config-type"))).selectByValue("yaml");
      type("config-content", FIRST);
      page.click(By.id("config-review"));
      waitForDiff();
      assertThat(diffLines()).containsExactly("+ timeout: 1", "+ retries: 3", "+ note: <b>not markup</b>");
      page.click(By.id("config-publish"));
      await("the API to have the new configuration").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(content("orders.yaml")).isEqualTo(FIRST));
      waitForConfigs("orders.yaml", "payments.properties");
      // The content is shown as text: the page has no <b> of it.
      page.waitForText(By.id("config-content-view"), FIRST);
      assertThat(page.browser().findElements(By.cssSelector("#config-content-view b"))).isEmpty();

      // A fuzzy search by a part of the data id.
      type("config-search-data-id", "rders");
      page.click(By.id("config-search"));
      waitForConfigs("orders.yaml");
      type("config-search-data-id", "");
      page.click(By.id("config-search"));
      waitForConfigs("orders.yaml", "payments.properties");

      page.click(By.cssSelector(row("orders.yaml") + " button.edit-config"));
      page.waiting(ConsolePage.UI_WAIT).until(d -> d.findElement(By.id("config-content")).getAttribute("value")
          .equals(FIRST));
      assertThat(page.browser().findElement(By.id("config-data-id")).getAttribute("readonly")).isNotNull();
      type("config-content", SECOND);
      page.click(By.id("config-review"));
      waitForDiff();
      assertThat(diffLines()).containsExactly("- timeout: 1", "+ timeout: 2", "  retries: 3",
          "  note: <b>not markup</b>");
      assertThat(content("orders.yaml")).as("nothing published before Publish").isEqualTo(FIRST);
      page.click(By.id("config-publish"));
      await("the API to have the edited content").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(content("orders.yaml")).isEqualTo(SECOND));

      // History: two revisions, newest first; rolling back to the first goes through the diff.
      String revisions = "#config-history tbody tr";
      page.waiting(ConsolePage.UI_WAIT).withMessage(() -> "waited for two revisions")
          .until(d -> d.findElements(By.cssSelector(revisions)).size() == 2);
      List<WebElement> rows = page.browser().findElements(By.cssSelector(revisions));
      String oldest = rows.get(1).getAttribute("data-revision");
      page.click(By.cssSelector("#config-history tr[data-revision='" + oldest + "'] button.view-revision"));
      page.waitForText(By.id("config-revision"), FIRST);
      page.click(By.cssSelector("#config-history tr[data-revision='" + oldest + "'] button.rollback"));
      waitForDiff();
      assertThat(diffLines()).contains("- timeout: 2", "+ timeout: 1");
      page.click(By.id("config-publish"));
      await("the API to have the first content again").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(content("orders.yaml")).isEqualTo(FIRST));
      page.waiting(ConsolePage.UI_WAIT).withMessage(() -> "waited for the rollback's revision")
          .until(d -> d.findElements(By.cssSelector(revisions)).size() == 3);

      By delete = By.cssSelector(row("orders.yaml") + " button.delete-config");
      page.click(delete);
      page.waitForText(delete, "Click again to delete");
      assertThat(content("orders.yaml")).as("one click deletes nothing").isEqualTo(FIRST);
      page.click(delete);
      await("the API to drop the configuration").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(page.http().get(CONFIGS, key("orders.yaml")).status()).isEqualTo(404));
      waitForConfigs("payments.properties");
      assertThat(page.browser().findElement(By.id("action-error")).isDisplayed()).as("an action error shown").isFalse();
    });
  }

  @Test
  void publishesABetaToSomeAddressesAndStopsIt() {
    assertThat(page.http().post(CONFIGS, Map.of("dataId", "beta.json", "group", "DEFAULT_GROUP",
        "content", "{\"v\":1}", "type", "json")).body()).isEqualTo("true");
    page.inBrowser("ConsoleConfigTest-beta", () -> {
      page.open();
      page.click(By.cssSelector(row("beta.json") + " button.edit-config"));
      page.waiting(ConsolePage.UI_WAIT).until(d -> d.findElement(By.id("config-content")).getAttribute("value")
          .equals("{\"v\":1}"));
      type("config-beta-ips", "10.9.9.9");
      type("config-content", "{\"v\":2}");
      page.click(By.id("config-review"));
      waitForDiff();
      assertThat(page.text(By.id("config-review-summary"))).contains("beta to 10.9.9.9 only");
      page.click(By.id("config-publish"));
      page.waitForText(By.id("config-beta-content"), "{\"v\":2}");
      assertThat(page.text(By.id("config-beta-ips-view"))).isEqualTo("10.9.9.9");
      assertThat(content("beta.json")).as("everyone else keeps the formal content").isEqualTo("{\"v\":1}");
      assertThat(beta().path("betaIps").asText()).isEqualTo("10.9.9.9");

      page.click(By.id("config-stop-beta"));
      await("the API to have no beta").atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> assertThat(beta().path("betaIps").asText("")).isEmpty());
      page.waiting(ConsolePage.UI_WAIT).until(d -> !d.findElement(By.id("config-beta")).isDisplayed());
    });
  }

  @Test
  void showsAClientHoldingALongPollOnTheConfiguration() throws Exception {
    assertThat(page.http().post(CONFIGS, Map.of("dataId", "watched.properties", "group", "DEFAULT_GROUP",
        "content", "k=v")).body()).isEqualTo("true");
    String md5 = json(page.http().get(CONFIGS, Map.of("dataId", "watched.properties", "group", "DEFAULT_GROUP",
        "show", "all"))).path("md5").asText();
    // Nacos 1.x's long poll, held open by the node while the client's md5 is current.
    String probe = "watched.properties\u0002DEFAULT_GROUP\u0002" + md5 + "\u0001";
    String form = "Listening-Configs=" + URLEncoder.encode(probe, StandardCharsets.UTF_8);
    URI base = URI.create(page.base());
    try (Socket poll = new Socket(base.getHost(), base.getPort())) {
      OutputStream out = poll.getOutputStream();
      out.write(("POST /nacos/v1/cs/configs/listener HTTP/1.1\r\nHost: x\r\nLong-Pulling-Timeout: 30000\r\n"
          + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length() + "\r\n\r\n" + form)
          .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      page.inBrowser("ConsoleConfigTest-listeners", () -> {
        page.open();
        page.click(By.cssSelector(row("watched.properties") + " button.view-config"));
        String listener = "#config-listeners tr[data-listener='127.0.0.1']";
        page.waitForText(ConsolePage.field(listener, "md5"), md5);
        assertThat(page.text(ConsolePage.field(listener, "current"))).isEqualTo("current");
      });
    }
  }

  private JsonNode beta() {
    Map<String, String> params = new java.util.HashMap<>(key("beta.json"));
    params.put("beta", "true");
    Http.Response r = page.http().get(CONFIGS, params);
    return r.status() == 404 ? json(new Http.Response(200, "{}")) : json(r).path("data");
  }

  private static Map<String, String> key(String dataId) {
    return Map.of("dataId", dataId, "group", "DEFAULT_GROUP");
  }

  private String content(String dataId) {
    Http.Response r = page.http().get(CONFIGS, key(dataId));
    assertThat(r.status()).as("GET %s: %s", dataId, r.body()).isEqualTo(200);
    return r.body();
  }

  private static String row(String dataId) {
    return "#configs tr[data-config='" + dataId + "']";
  }

  private void waitForConfigs(String... dataIds) {
    List<String> expected = List.of(dataIds);
    page.waiting(ConsolePage.UI_WAIT).withMessage(() -> "waited for the configurations " + expected)
        .until(d -> d.findElements(By.cssSelector("#configs tbody tr")).stream()
            .map(r -> r.getAttribute("data-config")).sorted().toList().equals(expected));
  }

  private void waitForDiff() {
    page.waiting(ConsolePage.UI_WAIT).withMessage(() -> "waited for the diff to review")
        .until(d -> d.findElement(By.id("config-review-box")).isDisplayed());
  }

  private List<String> diffLines() {
    return page.browser().findElements(By.cssSelector("#config-diff span")).stream()
        .map(s -> s.getAttribute("textContent")).toList();
  }

  /** Replaces an input's or a textarea's value. */
  private void type(String id, String text) {
    WebElement input = page.browser().findElement(By.id(id));
    input.clear();
    if (!text.isEmpty()) {
      input.sendKeys(text);
    }
  }
}
