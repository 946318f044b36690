package dev.nacre.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * A {@link NacreProcessCluster} for one test class: started before its tests, stopped (and its
 * folder deleted) after them, and described on the output when a test fails, with whatever else
 * {@code onFailure} prints. Register it as a static field with {@code @RegisterExtension}.
 */
public final class NacreClusterExtension implements BeforeAllCallback, AfterAllCallback, TestWatcher {
  private final int size;
  private final Runnable onFailure;
  private Path dir;
  private NacreProcessCluster cluster;

  public NacreClusterExtension(int size) {
    this(size, () -> {});
  }

  /** @param onFailure prints more of what a failed test needs (the apps' logs), before the cluster's state */
  public NacreClusterExtension(int size, Runnable onFailure) {
    this.size = size;
    this.onFailure = onFailure;
  }

  public NacreProcessCluster cluster() {
    if (cluster == null) {
      throw new IllegalStateException("the cluster starts before the test class's first test");
    }
    return cluster;
  }

  /** A folder of this cluster's run for the test's own processes (deleted with the cluster's). */
  public Path dir() {
    return dir;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    dir = Files.createTempDirectory("nacre-" + context.getRequiredTestClass().getSimpleName());
    cluster = NacreProcessCluster.start(dir, size);
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    onFailure.run();
    if (cluster != null) {
      System.out.println(cluster.describe());
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (cluster != null) {
      cluster.close();
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir, e);
    }
  }
}
