package dev.nacre.console;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console page in the browser, for tests: the node it is served by (started on loopback with
 * {@link #nodeSettings}), headless Chromium showing it, bounded waits on what it shows, clicks and
 * artifacts. Every console test starts one with {@link #start} and closes it at its end.
 */
final class ConsolePage implements AutoCloseable {
  /** Longer than the page's poll (3 s) plus a slow first paint on a busy machine. */
  static final Duration UI_WAIT = Duration.ofSeconds(20);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Settings of the node a console test starts on 127.0.0.1:{@code port}: no probes, and ephemeral
   * instances registered over HTTP without beats stay healthy for the whole test.
   */
  static Properties nodeSettings(int port, Path dataDir) {
    Properties p = new Properties();
    p.setProperty(NodeConfig.PORT, String.valueOf(port));
    p.setProperty(NodeConfig.BIND, "127.0.0.1");
    p.setProperty(NodeConfig.DATA_DIR, dataDir.toString());
    p.setProperty(NodeConfig.PROBE_PERIOD, "3600000");
    p.setProperty(NodeConfig.HEARTBEAT_TIMEOUT, "600000");
    p.setProperty(NodeConfig.IP_DELETE_TIMEOUT, "600000");
    return p;
  }

  /** A node with {@link #nodeSettings} in {@code dir}, and the browser. */
  static ConsolePage start(Path dir) {
    return start(dir, settings -> { });
  }

  /** Like {@link #start(Path)}; {@code extra} changes the node's settings first (e.g. turns on authentication). */
  static ConsolePage start(Path dir, Consumer<Properties> extra) {
    int port = FreePorts.mainPort();
    Properties settings = nodeSettings(port, dir.resolve("node"));
    extra.accept(settings);
    Node node = Node.start(NodeConfig.from(settings));
    try {
      return new ConsolePage(node, "http://127.0.0.1:" + port, new Chromium(dir.resolve("chromium-profile"),
          Path.of(System.getProperty("nacre.console.artifacts", "target/console-artifacts"))));
    } catch (RuntimeException | Error e) {
      // No page to close: the node would outlive the test.
      node.close();
      throw e;
    }
  }

  @FunctionalInterface
  interface Steps {
    void run() throws Exception;
  }

  private final Node node;
  /** {@code http://127.0.0.1:PORT}, the node's HTTP address. */
  private final String base;
  private final Http http;
  private final Chromium chromium;
  private final WebDriver browser;

  private ConsolePage(Node node, String base, Chromium chromium) {
    this.node = node;
    this.base = base;
    this.http = new Http(base);
    this.chromium = chromium;
    this.browser = chromium.driver();
  }

  Node node() {
    return node;
  }

  String base() {
    return base;
  }

  /** The node's HTTP API, to set up what the page shows and to check what it did. */
  Http http() {
    return http;
  }

  WebDriver browser() {
    return browser;
  }

  /** Loads the console. */
  void open() {
    browser.get(base + "/nacos/");
  }

  /** An API answer's body, after checking that it is a 200. */
  static JsonNode json(Http.Response r) {
    assertThat(r.status()).as("API answer: %s", r.body()).isEqualTo(200);
    try {
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + r.body(), e);
    }
  }

  /** A cell of a row, by its data-field. */
  static By field(String row, String name) {
    return By.cssSelector(row + " td[data-field='" + name + "']");
  }

  WebDriverWait waiting(Duration timeout) {
    WebDriverWait wait = new WebDriverWait(browser, timeout, Duration.ofMillis(100));
    // Polling re-renders a table when its data changes; an element read mid-swap is read again.
    wait.ignoring(NoSuchElementException.class).ignoring(StaleElementReferenceException.class);
    return wait;
  }

  String text(By by) {
    return waiting(UI_WAIT).until(d -> d.findElement(by).getText());
  }

  void waitForText(By by, String expected) {
    waiting(UI_WAIT)
        .withMessage(() -> "waited " + UI_WAIT.toSeconds() + " s for " + by + " to read '" + expected + "'")
        .until(d -> d.findElement(by).getText().equals(expected));
  }

  /**
   * Types {@code text} into the services' search box in place of what it held. Keys, not {@code
   * clear()}: clear fires no input event, and the page searches on input like a typing operator.
   */
  void search(String text) {
    WebElement box = browser.findElement(By.id("search"));
    box.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
    if (!text.isEmpty()) {
      box.sendKeys(text);
    }
  }

  /** The names of the services' rows, in the page's order. */
  List<String> serviceNames() {
    return browser.findElements(By.cssSelector("#services tbody tr")).stream()
        .map(row -> row.getAttribute("data-service")).toList();
  }

  /** Waits until the services' table lists exactly {@code names}, in that order. */
  void waitForServices(String... names) {
    List<String> expected = Arrays.asList(names);
    // What was last read, for the message: the rows may be mid-swap when the wait gives up.
    AtomicReference<List<String>> shown = new AtomicReference<>(List.of());
    waiting(UI_WAIT)
        .withMessage(() -> "waited " + UI_WAIT.toSeconds() + " s for the services " + expected + ", the page shows "
            + shown.get())
        .until(d -> {
          shown.set(serviceNames());
          return shown.get().equals(expected);
        });
  }

  /** Clicks once: a stale or not yet clickable element is found again (such a click never happened). */
  void click(By by) {
    waiting(UI_WAIT).ignoring(ElementNotInteractableException.class)
        .withMessage(() -> "waited " + UI_WAIT.toSeconds() + " s to click " + by)
        .until(d -> {
          d.findElement(by).click();
          return true;
        });
  }

  /** Runs browser steps; a failure saves what the page showed and says where. */
  void inBrowser(String name, Steps steps) {
    try {
      steps.run();
    } catch (Throwable t) {
      String shot = chromium.saveArtifacts(name);
      throw new AssertionError("console test '" + name + "' failed: " + t.getMessage()
          + "\n  screenshot: " + shot + " (the page's DOM beside it as .html, chromedriver.log in the same folder)", t);
    }
  }

  /** Stops the browser, then the node. */
  @Override
  public void close() {
    try {
      chromium.close();
    } finally {
      node.close();
    }
  }
}
