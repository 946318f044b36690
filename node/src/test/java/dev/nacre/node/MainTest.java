package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The format itself is MemberFileTest's; here, what --cluster-conf makes of it. */
@Timeout(10)
class MainTest {
  @TempDir Path dir;

  @Test
  void clusterConfBecomesTheMemberSettingAndAMissingOneIsNamed() throws Exception {
    Path conf = dir.resolve("cluster.conf");
    Files.writeString(conf, "127.0.0.1:8848\n127.0.0.1:8858 # second\n");
    assertThat(Main.readClusterConf(conf)).isEqualTo("127.0.0.1:8848,127.0.0.1:8858");
    assertThatThrownBy(() -> Main.readClusterConf(dir.resolve("absent.conf")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--cluster-conf").hasMessageContaining("absent.conf");
  }
}
