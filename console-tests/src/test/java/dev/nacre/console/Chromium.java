package dev.nacre.console;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium driven through chromedriver, both the system's own (Debian's {@code
 * chromium} and {@code chromium-driver}): nothing is downloaded at run time. A missing browser is
 * a failure with the command that installs it, never a skipped test.
 */
final class Chromium implements AutoCloseable {
  /** Overridable for machines that keep them elsewhere. */
  static final String BROWSER_PROPERTY = "nacre.chromium";
  static final String DRIVER_PROPERTY = "nacre.chromedriver";

  private final ChromeDriverService service;
  private final ChromeDriver driver;
  private final Path artifacts;

  /**
   * @param profile an empty folder for the browser's profile (a fresh one per run)
   * @param artifacts where screenshots, page sources and chromedriver's log go
   */
  Chromium(Path profile, Path artifacts) {
    File browser = executable(BROWSER_PROPERTY, "/usr/bin/chromium");
    File chromedriver = executable(DRIVER_PROPERTY, "/usr/bin/chromedriver");
    this.artifacts = artifacts;
    try {
      Files.createDirectories(artifacts);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + artifacts, e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(browser);
    options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        // Containers give /dev/shm 64 MB, too little for the renderer.
        "--disable-dev-shm-usage", "--window-size=1280,1000", "--user-data-dir=" + profile.toAbsolutePath());
    // Both paths given: Selenium Manager has nothing to look up or download.
    service = new ChromeDriverService.Builder()
        .usingDriverExecutable(chromedriver)
        .usingAnyFreePort()
        .withLogFile(artifacts.resolve("chromedriver.log").toFile())
        .build();
    try {
      driver = new ChromeDriver(service, options);
    } catch (RuntimeException e) {
      service.stop();
      throw new IllegalStateException("cannot start " + browser + " through " + chromedriver
          + " (see " + artifacts.resolve("chromedriver.log") + "); check that both are the same version:"
          + " apt-get install -y chromium chromium-driver", e);
    }
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(10));
  }

  private static File executable(String property, String fallback) {
    File file = new File(System.getProperty(property, fallback));
    if (!file.canExecute()) {
      throw new IllegalStateException("the console test needs " + file + ", which is missing: install Chromium and"
          + " its driver with `apt-get install -y chromium chromium-driver` (scripts/test.sh does so when it"
          + " can), or point -D" + property + "=PATH at them");
    }
    return file;
  }

  WebDriver driver() {
    return driver;
  }

  /**
   * Saves what the browser shows as {@code NAME.png} and its DOM as {@code NAME.html}; returns the
   * screenshot's path, or says why there is none (the failure being reported matters more).
   */
  String saveArtifacts(String name) {
    Path png = artifacts.resolve(name + ".png");
    try {
      Files.write(png, driver.getScreenshotAs(OutputType.BYTES));
      Files.writeString(artifacts.resolve(name + ".html"), driver.getPageSource(), StandardCharsets.UTF_8);
      return png.toString();
    } catch (IOException | RuntimeException e) {
      return "(no screenshot: " + e + ")";
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      service.stop();
    }
  }
}
