package dev.nacre.naming.registry;

import static dev.nacre.naming.support.NamingFixture.SERVICE;
import static dev.nacre.naming.support.NamingFixture.instance;
import static dev.nacre.naming.support.NamingFixture.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.support.NamingFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class ServiceChangeListenerTest {
  @TempDir Path dir;

  @Test
  void bothWritePathsReportChangesAndNoOpsStaySilent() {
    try (NamingFixture f = new NamingFixture(dir.resolve("db"))) {
      List<ServiceKey> changes = new ArrayList<>();
      f.index.addListener(changes::add);
      f.ops.registerInstance(instance("10.0.0.1", 80, true));
      f.ops.registerInstance(instance("10.0.0.2", 80, false));
      assertThat(changes).containsExactly(SERVICE, SERVICE);

      changes.clear();
      f.ops.deregisterInstance(key("10.0.0.9", 80), true);
      f.index.setHealth(key("10.0.0.2", 80), false, true);
      assertThat(changes).as("nothing changed").isEmpty();

      f.index.setHealth(key("10.0.0.2", 80), false, false);
      assertThat(changes).containsExactly(SERVICE);
    }
  }
}
