package dev.nacre.node.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a member keeps the log index of the last Raft configuration that listed it, so that after
 * a restart it still tells its removal (a later configuration without it) from its addition
 * (earlier ones without it, replayed while it catches up). A file it cannot read or write costs
 * only that; the member logs why and goes on.
 */
final class ListedAtFile {
  private static final Logger log = LoggerFactory.getLogger(ListedAtFile.class);
  private final String node;
  private final Path file;

  ListedAtFile(String node, Path dataDir) {
    this.node = node;
    this.file = dataDir.resolve("member-listed-at");
  }

  /** The index kept; -1 when none was. */
  long read() {
    try {
      return Files.exists(file) ? Long.parseLong(Files.readString(file).strip()) : -1;
    } catch (IOException | NumberFormatException e) {
      log.warn("[{}] cannot read {} ({}); taking this member as never listed", node, file, e.toString());
      return -1;
    }
  }

  /** Keeps {@code index}, atomically: a crash leaves the old index or the new one. */
  void write(long index) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling("member-listed-at.tmp");
      Files.writeString(tmp, Long.toString(index));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      log.warn("[{}] cannot write {} ({}); a restart may not recognise a removal", node, file, e.toString());
    }
  }
}
