package dev.nacre.node.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;

/**
 * Nacos' {@code cluster.conf}: one member {@code host:port} a line, {@code #} starts a comment.
 * A node started from one rewrites it whenever the members change (Nacos does the same), so that
 * the file an operator reads, or a wiped member starts from, lists the cluster as it is.
 */
public final class MemberFile {
  private MemberFile() {}

  /** The members listed in {@code file}, in order. */
  public static List<String> read(Path file) {
    try {
      return Files.readAllLines(file).stream()
          .map(line -> line.replaceFirst("#.*", "").trim())
          .filter(line -> !line.isEmpty())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the member file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Replaces {@code file} with {@code members}, atomically: a reader, or a crash, sees the old list
   * or the new one, never half of one.
   */
  public static void write(Path file, List<String> members) {
    StringBuilder text = new StringBuilder()
        .append("# The cluster's members, written by Nacre at ").append(Instant.now())
        .append(" when they changed (nacre members add|remove).\n");
    members.forEach(m -> text.append(m).append('\n'));
    try {
      // A name of its own: members of one JVM (tests) may share the file.
      Path temporary = Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName().toString(), ".tmp");
      Files.writeString(temporary, text);
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rewrite the member file " + file + " (" + e.getMessage()
          + "); the members are " + String.join(",", members) + ": put them there by hand", e);
    }
  }
}
