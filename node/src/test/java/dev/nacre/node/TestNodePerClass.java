package dev.nacre.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link TestNode} shared by all the tests of a class: started on a fresh data folder and put
 * in the class's static {@code TestNode} field before its {@code @BeforeAll} methods run; stopped,
 * and its folder removed, after its {@code @AfterAll} methods. The classes whose tests share a node
 * each had the same start and stop methods; {@code @ExtendWith(TestNodePerClass.class)} replaces
 * them.
 */
final class TestNodePerClass implements BeforeAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TestNodePerClass.class);

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Class<?> testClass = context.getRequiredTestClass();
    Field field = nodeField(testClass);
    Started started = new Started(Files.createTempDirectory("nacre-test-node"));
    // In the class's store before the node starts: the folder goes even if the start fails.
    context.getStore(NAMESPACE).put(testClass, started);
    started.node = TestNode.start(started.dir);
    field.set(null, started.node);
  }

  private static Field nodeField(Class<?> testClass) {
    Field[] found = Stream.of(testClass.getDeclaredFields())
        .filter(f -> f.getType() == TestNode.class && Modifier.isStatic(f.getModifiers()))
        .toArray(Field[]::new);
    if (found.length != 1) {
      throw new IllegalStateException(testClass.getSimpleName() + " declares " + found.length
          + " static TestNode fields; TestNodePerClass fills exactly one");
    }
    found[0].setAccessible(true);
    return found[0];
  }

  /** The node and its folder, closed by JUnit when the test class's context closes. */
  private static final class Started implements AutoCloseable {
    final Path dir;
    TestNode node;

    Started(Path dir) {
      this.dir = dir;
    }

    @Override
    public void close() throws IOException {
      try {
        if (node != null) {
          node.close();
        }
      } finally {
        try (Stream<Path> paths = Files.walk(dir)) {
          paths.sorted(Comparator.reverseOrder()).forEach(TestNodePerClass::delete);
        }
      }
    }
  }

  private static void delete(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
