package dev.nacre.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemberFileTest {
  @TempDir Path dir;

  @Test
  void readsNacosFormatAndRewritesItWithTheMembersOnly() throws Exception {
    Path conf = dir.resolve("cluster.conf");
    Files.writeString(conf, "# members\n127.0.0.1:8848\n\n127.0.0.1:8858 # second\n127.0.0.1:8868\n");
    assertThat(MemberFile.read(conf)).containsExactly("127.0.0.1:8848", "127.0.0.1:8858", "127.0.0.1:8868");

    MemberFile.write(conf, List.of("127.0.0.1:8848", "127.0.0.1:8858", "127.0.0.1:8868", "127.0.0.1:8878"));
    assertThat(MemberFile.read(conf)).containsExactly("127.0.0.1:8848", "127.0.0.1:8858", "127.0.0.1:8868", "127.0.0.1:8878");
    MemberFile.write(conf, List.of("127.0.0.1:8858"));
    assertThat(MemberFile.read(conf)).containsExactly("127.0.0.1:8858");
    assertThat(Files.readString(conf)).startsWith("# ");
    try (var left = Files.list(dir)) {
      assertThat(left).as("no temporary file left").containsExactly(conf);
    }
  }

  @Test
  void aFileThatCannotBeWrittenSaysWhatToPutThere() {
    Path conf = dir.resolve("missing-folder").resolve("cluster.conf");
    assertThatThrownBy(() -> MemberFile.write(conf, List.of("127.0.0.1:8848", "127.0.0.1:8858")))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("127.0.0.1:8848,127.0.0.1:8858")
        .hasMessageContaining("by hand");
    assertThatThrownBy(() -> MemberFile.read(conf)).isInstanceOf(UncheckedIOException.class);
  }
}
