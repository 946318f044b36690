package dev.nacre.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RocksDB database in one folder, with named column families and a record of the last applied
 * log position written in the same atomic batch as the data it describes. That record is what lets
 * a replicated state machine skip entries it already applied after a crash.
 *
 * <p>Thread-safe for reads and commits; {@link #replaceWith} and {@link #close} must not race with
 * them (the state machine calls them from its single apply thread). A {@link #checkpoint} may run
 * on another thread alongside commits; replacing or closing the database waits for it to end.
 */
public final class RocksStore implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RocksStore.class);
  private static final String META = "nacre-meta";
  private static final byte[] APPLIED = "applied".getBytes(StandardCharsets.UTF_8);

  static {
    RocksDB.loadLibrary();
  }

  private final Path dir;
  private final List<String> families;
  private RocksDB db;
  private DBOptions options;
  private final Map<String, ColumnFamilyHandle> handles = new HashMap<>();
  private final List<ColumnFamilyHandle> allHandles = new ArrayList<>();
  /** Held by a checkpoint and by closing the database, so that neither sees the other half done. */
  private final Object checkpointLock = new Object();
  /** Read by {@link #scan} (callable from any thread), written while the database is closed. */
  private final ReadWriteLock openLock = new ReentrantReadWriteLock();

  private RocksStore(Path dir, List<String> families) {
    this.dir = dir;
    this.families = List.copyOf(families);
  }

  /** Opens (creating if needed) the database in {@code dir} with the given column families. */
  public static RocksStore open(Path dir, List<String> families) {
    RocksStore store = new RocksStore(dir, families);
    store.openDb();
    return store;
  }

  private void openDb() {
    openLock.writeLock().lock();
    try {
      Files.createDirectories(dir);
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY));
      descriptors.add(new ColumnFamilyDescriptor(bytes(META)));
      for (String family : families) {
        descriptors.add(new ColumnFamilyDescriptor(bytes(family)));
      }
      options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
      db = RocksDB.open(options, dir.toString(), descriptors, allHandles);
      handles.put(META, allHandles.get(1));
      for (int i = 0; i < families.size(); i++) {
        handles.put(families.get(i), allHandles.get(i + 2));
      }
    } catch (IOException | RocksDBException e) {
      throw new StorageException(
          "cannot open RocksDB in " + dir + ": check that the folder is writable and not used by"
              + " another process",
          e);
    } finally {
      openLock.writeLock().unlock();
    }
  }

  public Optional<byte[]> get(String family, byte[] key) {
    try {
      return Optional.ofNullable(db.get(handle(family), key));
    } catch (RocksDBException e) {
      throw new StorageException("read from " + family + " failed in " + dir, e);
    }
  }

  /** Reads as if {@code pending} were already committed (read-your-writes inside one atomic step). */
  public Optional<byte[]> get(String family, byte[] key, Batch pending) {
    Batch.Mutation latest = pending.latest(family, key);
    if (latest == null) {
      return get(family, key);
    }
    return latest.isDelete() ? Optional.empty() : Optional.of(latest.value().clone());
  }

  /** Visits every entry of a family in key order. */
  public void forEach(String family, BiConsumer<byte[], byte[]> visitor) {
    try (RocksIterator it = db.newIterator(handle(family))) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        visitor.accept(it.key(), it.value());
      }
    }
  }

  /** Receives the entries of a {@link #scan}; returns whether to go on. */
  @FunctionalInterface
  public interface ScanVisitor {
    boolean visit(byte[] key, byte[] value);
  }

  /**
   * Visits the entries of a family in key order from the first key at or after {@code from},
   * while {@code visitor} returns true. Unlike the other reads it may run on any thread, also
   * while {@link #replaceWith} swaps the data: it then waits, or fails with {@link
   * StorageException} if the database is closed at that moment.
   */
  public void scan(String family, byte[] from, ScanVisitor visitor) {
    openLock.readLock().lock();
    try {
      if (db == null) {
        throw new StorageException("RocksDB in " + dir + " is closed or being replaced by a snapshot; retry", null);
      }
      try (RocksIterator it = db.newIterator(handle(family))) {
        for (it.seek(from); it.isValid(); it.next()) {
          if (!visitor.visit(it.key(), it.value())) {
            return;
          }
        }
      }
    } finally {
      openLock.readLock().unlock();
    }
  }

  /** Applies the batch and records {@code (appliedIndex, appliedTerm)} in one atomic write. */
  public void commit(Batch batch, long appliedIndex, long appliedTerm) {
    try (WriteBatch wb = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
      for (Batch.Mutation m : batch.mutations()) {
        if (m.isDelete()) {
          wb.delete(handle(m.family()), m.key());
        } else {
          wb.put(handle(m.family()), m.key(), m.value());
        }
      }
      wb.put(handle(META), APPLIED, ByteBuffer.allocate(16).putLong(appliedIndex).putLong(appliedTerm).array());
      db.write(wo, wb);
    } catch (RocksDBException e) {
      throw new StorageException("write to " + dir + " failed; is the disk full?", e);
    }
  }

  /**
   * Sizes for operators, summed over the column families: bytes in SST files on disk, bytes that
   * compaction still has to rewrite (an estimate), bytes in memtables.
   */
  public record Stats(long sstBytes, long pendingCompactionBytes, long memtableBytes) {}

  public Stats stats() {
    try {
      return new Stats(db.getAggregatedLongProperty("rocksdb.total-sst-files-size"),
          db.getAggregatedLongProperty("rocksdb.estimate-pending-compaction-bytes"),
          db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables"));
    } catch (RocksDBException e) {
      throw new StorageException("cannot read the sizes of " + dir, e);
    }
  }

  /** The index recorded by the last {@link #commit}, 0 if none. */
  public long appliedIndex() {
    return applied().getLong(0);
  }

  /** The term recorded by the last {@link #commit}, 0 if none. */
  public long appliedTerm() {
    return applied().getLong(8);
  }

  private ByteBuffer applied() {
    return ByteBuffer.wrap(get(META, APPLIED).orElse(new byte[16]));
  }

  /** Writes a consistent copy of the database into {@code target}, which must not exist yet. */
  public void checkpoint(Path target) {
    synchronized (checkpointLock) {
      if (db == null) {
        throw new StorageException("checkpoint of " + dir + " into " + target + " refused: the store is closed", null);
      }
      try (Checkpoint checkpoint = Checkpoint.create(db)) {
        checkpoint.createCheckpoint(target.toString());
      } catch (RocksDBException e) {
        throw new StorageException("checkpoint of " + dir + " into " + target + " failed", e);
      }
    }
  }

  /**
   * Replaces this store's data with a copy of a checkpoint folder, then reopens. The checkpoint is
   * copied aside first ({@link #copyTree}) and swapped in by renames, so a crash leaves either the
   * old or the new data.
   */
  public void replaceWith(Path checkpointDir) {
    Path incoming = dir.resolveSibling(dir.getFileName() + ".incoming");
    Path old = dir.resolveSibling(dir.getFileName() + ".old");
    try {
      deleteTree(incoming);
      copyTree(checkpointDir, incoming);
      closeDb();
      deleteTree(old);
      Files.move(dir, old, StandardCopyOption.ATOMIC_MOVE);
      Files.move(incoming, dir, StandardCopyOption.ATOMIC_MOVE);
      force(dir.toAbsolutePath().getParent(), true); // the renames, before the old data goes
      deleteTree(old);
    } catch (IOException e) {
      throw new StorageException("cannot install checkpoint " + checkpointDir + " into " + dir, e);
    } finally {
      if (db == null) {
        openDb();
      }
    }
    log.info("Installed checkpoint {} into {} (applied index {})", checkpointDir, dir, appliedIndex());
  }

  public Path dir() {
    return dir;
  }

  @Override
  public void close() {
    closeDb();
  }

  private void closeDb() {
    synchronized (checkpointLock) {
      openLock.writeLock().lock();
      try {
        if (db == null) {
          return;
        }
        for (ColumnFamilyHandle h : allHandles) {
          h.close();
        }
        allHandles.clear();
        handles.clear();
        db.close();
        options.close();
        db = null;
      } finally {
        openLock.writeLock().unlock();
      }
    }
  }

  private ColumnFamilyHandle handle(String family) {
    ColumnFamilyHandle h = handles.get(family);
    if (h == null) {
      throw new IllegalArgumentException("unknown column family " + family + "; declare it in open()");
    }
    return h;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Copies a checkpoint folder, durably: table files ({@code .sst}, which RocksDB never changes once
   * written) are hard-linked where the file system allows, the rest copied and forced to disk.
   * Linking spares the copy of the bulk of the data (a follower installing a snapshot waits for it).
   */
  static void copyTree(Path from, Path to) throws IOException {
    List<Path> dirs = new ArrayList<>();
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
          dirs.add(target);
        } else if (!(p.getFileName().toString().endsWith(".sst") && linked(p, target))) {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
          force(target, false);
        }
      }
    }
    for (Path d : dirs) {
      force(d, true);
    }
  }

  private static boolean linked(Path existing, Path link) {
    try {
      Files.createLink(link, existing);
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false; // another file system, or no hard links there: copy
    }
  }

  private static void force(Path p, boolean directory) throws IOException {
    try (FileChannel channel = FileChannel.open(p, directory ? StandardOpenOption.READ : StandardOpenOption.WRITE)) {
      channel.force(true);
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
