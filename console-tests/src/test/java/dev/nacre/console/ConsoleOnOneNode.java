package dev.nacre.console;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The console of one real node in one headless Chromium, shared by a class's tests. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ConsoleOnOneNode {
  protected ConsolePage page;

  @BeforeAll
  @Timeout(90)
  void start(@TempDir Path dir) {
    page = ConsolePage.start(dir);
  }

  @AfterAll
  void stop() {
    if (page != null) {
      page.close();
    }
  }
}
