package dev.nacre.console;

import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementNotInteractableException;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The console page in the browser, for tests: bounded waits on what it shows, clicks, artifacts. */
final class ConsolePage {
  /** Longer than the page's poll (3 s) plus a slow first paint on a busy machine. */
  static final Duration UI_WAIT = Duration.ofSeconds(20);

  /**
   * Settings of the node a console test starts on 127.0.0.1:{@code port}: no probes, and ephemeral
   * instances registered over HTTP without beats stay healthy for the whole test.
   */
  static java.util.Properties nodeSettings(int port, java.nio.file.Path dataDir) {
    java.util.Properties p = new java.util.Properties();
    p.setProperty(dev.nacre.node.config.NodeConfig.PORT, String.valueOf(port));
    p.setProperty(dev.nacre.node.config.NodeConfig.BIND, "127.0.0.1");
    p.setProperty(dev.nacre.node.config.NodeConfig.DATA_DIR, dataDir.toString());
    p.setProperty(dev.nacre.node.config.NodeConfig.PROBE_PERIOD, "3600000");
    p.setProperty(dev.nacre.node.config.NodeConfig.HEARTBEAT_TIMEOUT, "600000");
    p.setProperty(dev.nacre.node.config.NodeConfig.IP_DELETE_TIMEOUT, "600000");
    return p;
  }

  @FunctionalInterface
  interface Steps {
    void run() throws Exception;
  }

  private final Chromium chromium;
  private final WebDriver browser;

  ConsolePage(Chromium chromium) {
    this.chromium = chromium;
    this.browser = chromium.driver();
  }

  WebDriver browser() {
    return browser;
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
}
