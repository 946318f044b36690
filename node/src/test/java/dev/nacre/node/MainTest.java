package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class MainTest {
  @TempDir Path dir;

  @Test
  void readsNacosClusterConf() throws Exception {
    Path conf = dir.resolve("cluster.conf");
    Files.writeString(conf, "# members\n127.0.0.1:8848\n\n127.0.0.1:8858 # second\n127.0.0.1:8868\n");
    assertThat(Main.readClusterConf(conf)).isEqualTo("127.0.0.1:8848,127.0.0.1:8858,127.0.0.1:8868");
  }
}
