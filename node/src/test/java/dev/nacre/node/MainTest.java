package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The format itself is MemberFileTest's; here, what --cluster-conf makes of it. */
@Timeout(30)
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

  /**
   * The jar opens {@code java.nio} to Netty (its manifest's {@code Add-Opens}, given here on the
   * command line); with Main's setting Netty then takes its direct memory unzeroed. A renamed
   * property (a Ratis upgrade that shades Netty elsewhere) would leave it zeroing, silently.
   */
  @Test
  void mainLetsNettyTakeItsDirectMemoryUnzeroed() throws Exception {
    assertThat(probe("main", "unzeroed=")).isEqualTo("unzeroed=true");
    assertThat(probe("default", "unzeroed=")).as("Netty's own default, without Main's setting")
        .isEqualTo("unzeroed=false");
  }

  /** The same for the size of gRPC's shared transport thread group. */
  @Test
  void mainGivesTheSharedTransportThreadsHalfTheProcessors() throws Exception {
    int processors = Runtime.getRuntime().availableProcessors();
    assertThat(probe("main", "threads=")).isEqualTo("threads=" + Math.max(1, processors / 2));
    assertThat(probe("default", "threads=")).as("Netty's own default, without Main's setting")
        .isEqualTo("threads=" + 2 * processors);
  }

  /** The line of the probe's output that starts with {@code prefix}. */
  private static String probe(String mode, String prefix) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), NettySettingsProbe.class.getName(), mode))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(out);
  }
}
