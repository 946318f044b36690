package dev.nacre.naming.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * A fresh {@link NamingFixture} with the default configuration for every test, on its own
 * RocksDB folder: put in the test's {@code NamingFixture} field before its {@code @BeforeEach}
 * methods run; closed, whichever fixture the field then holds, and its folder removed after its
 * {@code @AfterEach} methods. The naming tests had the same set-up and tear-down methods each;
 * {@code @ExtendWith(NamingFixturePerTest.class)} replaces them.
 */
public final class NamingFixturePerTest implements BeforeEachCallback, AfterEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(NamingFixturePerTest.class);

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    Path folder = Files.createTempDirectory("nacre-naming-fixture");
    context.getStore(NAMESPACE).put(Path.class, folder);
    fixtureField(context).set(context.getRequiredTestInstance(), new NamingFixture(folder.resolve("db")));
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Path folder = context.getStore(NAMESPACE).remove(Path.class, Path.class);
    try {
      Object fixture = fixtureField(context).get(context.getRequiredTestInstance());
      if (fixture != null) {
        ((NamingFixture) fixture).close();
      }
    } finally {
      try (Stream<Path> paths = Files.walk(folder)) {
        paths.sorted(Comparator.reverseOrder()).forEach(NamingFixturePerTest::remove);
      }
    }
  }

  private static Field fixtureField(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    List<Field> fields = ReflectionSupport.findFields(testClass,
        f -> !Modifier.isStatic(f.getModifiers()) && f.getType() == NamingFixture.class,
        HierarchyTraversalMode.TOP_DOWN);
    if (fields.size() != 1) {
      throw new IllegalStateException(testClass.getSimpleName() + " needs exactly one NamingFixture field for "
          + NamingFixturePerTest.class.getSimpleName() + ", has " + fields.size());
    }
    Field field = fields.get(0);
    field.setAccessible(true);
    return field;
  }

  private static void remove(Path path) {
    try {
      Files.delete(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
