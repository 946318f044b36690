package dev.nacre.consensus.raft.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots as folders {@code snapshot.<term>_<index>} in Ratis' state machine folder, each holding
 * {@code data/} (what the state machine wrote, e.g. a RocksDB checkpoint) and a small properties
 * manifest. Every file is listed with an absolute path so that Ratis' leader can stream the whole
 * folder to a follower, which receives it as a replacement of its own state machine folder.
 *
 * <p>A folder only gets its final name once complete, so a crash never leaves a half snapshot
 * that looks valid.
 */
public final class CheckpointSnapshotStorage implements StateMachineStorage {
  private static final Logger log = LoggerFactory.getLogger(CheckpointSnapshotStorage.class);
  private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");
  private static final String MANIFEST = "snapshot.properties";
  private static final String DATA = "data";
  private static final int RETAINED = 2;
  private static final String WRITING = "writing-";

  private final String selfId;
  private Path smDir;
  private Path tmpDir;
  private volatile Snapshot latest;
  /** The latest snapshot when old ones were last deleted; Ratis' apply thread only. */
  private Snapshot cleanedUpFor;

  /** A complete snapshot on disk and what it covers. */
  public record Snapshot(TermIndex termIndex, long dataIndex, Path dir, FileListSnapshotInfo info) {
    public Path dataDir() {
      return dir.resolve(DATA);
    }
  }

  public CheckpointSnapshotStorage(String selfId) {
    this.selfId = selfId;
  }

  @Override
  public void init(RaftStorage raftStorage) throws IOException {
    smDir = raftStorage.getStorageDir().getStateMachineDir().toPath().toAbsolutePath();
    tmpDir = raftStorage.getStorageDir().getTmpDir().toPath().toAbsolutePath();
    Files.createDirectories(smDir);
    Files.createDirectories(tmpDir);
    try (Stream<Path> leftovers = Files.list(tmpDir)) {
      for (Path p : (Iterable<Path>) leftovers.filter(p -> p.getFileName().toString().startsWith(WRITING))::iterator) {
        deleteTree(p); // a snapshot interrupted by a crash
      }
    }
    refresh();
  }

  /** Rescans the folder, e.g. after Ratis replaced it with a snapshot from the leader. */
  public Optional<Snapshot> refresh() throws IOException {
    Snapshot found = null;
    for (Path dir : listSnapshotDirs()) {
      found = load(dir);
    }
    latest = found;
    return Optional.ofNullable(found);
  }

  public Optional<Snapshot> latest() {
    return Optional.ofNullable(latest);
  }

  /** The log index of the newest complete snapshot, {@link RaftLog#INVALID_LOG_INDEX} when none. */
  public long latestIndex() {
    Snapshot s = latest;
    return s == null ? RaftLog.INVALID_LOG_INDEX : s.termIndex().getIndex();
  }

  @Override
  public SnapshotInfo getLatestSnapshot() {
    Snapshot s = latest;
    return s == null ? null : s.info();
  }

  /**
   * Writes a snapshot named {@code at}: {@code writer} fills an empty {@code data/} folder whose
   * content reflects the state machine's applied index {@code dataIndex}.
   */
  public Snapshot write(TermIndex at, long dataIndex, Consumer<Path> writer) throws IOException {
    Path target = smDir.resolve("snapshot." + at.getTerm() + "_" + at.getIndex());
    if (Files.isDirectory(target)) {
      return refresh().orElseThrow();
    }
    Path work = tmpDir.resolve(WRITING + target.getFileName());
    deleteTree(work);
    Files.createDirectories(work.resolve(DATA));
    try {
      writer.accept(work.resolve(DATA));
    } catch (RuntimeException e) {
      deleteTree(work);
      throw new IOException("the state machine failed to write snapshot " + target.getFileName(), e);
    }
    Properties manifest = new Properties();
    manifest.setProperty("term", Long.toString(at.getTerm()));
    manifest.setProperty("index", Long.toString(at.getIndex()));
    manifest.setProperty("dataIndex", Long.toString(dataIndex));
    try (FileChannel channel = FileChannel.open(work.resolve(MANIFEST), StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE); OutputStream out = Channels.newOutputStream(channel)) {
      manifest.store(out, "Nacre Raft snapshot");
      out.flush();
      channel.force(true);
    }
    // Ratis purges the log once this returns: the snapshot must survive a power loss by then.
    Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
    fsyncDirectory(target);
    fsyncDirectory(smDir);
    Snapshot written = load(target);
    latest = written;
    log.info("[{}] wrote snapshot {} (state machine applied index {})", selfId, target, dataIndex);
    return written;
  }

  /** Drops the .md5 files that Ratis leaves next to each received file; they are not data. */
  public void removeTransferDigests(Snapshot snapshot) throws IOException {
    try (Stream<Path> files = Files.walk(snapshot.dir())) {
      for (Path p : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".md5"))::iterator) {
        Files.delete(p);
      }
    }
  }

  @Override
  public void format() {
    // Nothing to prepare: folders are created on demand.
  }

  /**
   * Ratis calls this after each question for a snapshot, which while one is written in the
   * background is after every entry: the folder is only listed when a new snapshot came.
   */
  @Override
  public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
    Snapshot newest = latest;
    if (newest == null || newest == cleanedUpFor) {
      return;
    }
    int keep = Math.max(RETAINED, policy == null ? 0 : policy.getNumSnapshotsRetained());
    List<Path> dirs = listSnapshotDirs();
    for (int i = 0; i < dirs.size() - keep; i++) {
      deleteTree(dirs.get(i));
      log.debug("[{}] deleted old snapshot {}", selfId, dirs.get(i));
    }
    cleanedUpFor = newest;
  }

  private List<Path> listSnapshotDirs() throws IOException {
    List<Path> dirs = new ArrayList<>();
    try (Stream<Path> children = Files.list(smDir)) {
      children.filter(p -> NAME.matcher(p.getFileName().toString()).matches())
          .filter(p -> Files.isRegularFile(p.resolve(MANIFEST)))
          .forEach(dirs::add);
    }
    dirs.sort(Comparator.comparingLong(p -> termIndexOf(p).getIndex()));
    return dirs;
  }

  private Snapshot load(Path dir) throws IOException {
    Properties manifest = new Properties();
    try (InputStream in = Files.newInputStream(dir.resolve(MANIFEST))) {
      manifest.load(in);
    }
    TermIndex ti = termIndexOf(dir);
    long dataIndex = Long.parseLong(manifest.getProperty("dataIndex", "0"));
    List<FileInfo> files = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.filter(Files::isRegularFile)
          .filter(p -> !p.toString().endsWith(".md5"))
          .sorted()
          .forEach(p -> files.add(new FileInfo(p, null)));
    }
    return new Snapshot(ti, dataIndex, dir, new FileListSnapshotInfo(files, ti));
  }

  private static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  private static TermIndex termIndexOf(Path dir) {
    Matcher m = NAME.matcher(dir.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a snapshot folder: " + dir);
    }
    return TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
