package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A data folder of the versions before the configuration service is refused, not read as empty. */
class OldDataFolderTest {
  @TempDir Path dir;

  @Test
  void aFolderWithNamingAndNoStateIsRefusedWithWhatToDo() throws Exception {
    Files.createDirectories(dir.resolve("naming"));
    assertThatThrownBy(() -> Node.stateDir(dir))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("naming/ and no state/")
        .hasMessageContaining("empty data folder");
  }

  @Test
  void aNewOrCurrentFolderIsUsed() throws Exception {
    assertThat(Node.stateDir(dir)).isEqualTo(dir.resolve("state"));
    Files.createDirectories(dir.resolve("naming"));
    Files.createDirectories(dir.resolve("state"));
    assertThat(Node.stateDir(dir)).isEqualTo(dir.resolve("state"));
  }
}
