package dev.nacre.config.state;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.Revision;
import dev.nacre.proto.config.RevisionRecord;
import dev.nacre.storage.RocksStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * Reads of the configurations' revisions from RocksDB, from any thread. Fails with {@link
 * dev.nacre.storage.StorageException} while a snapshot replaces the database.
 */
public final class ConfigHistory {
  private final RocksStore store;

  ConfigHistory(RocksStore store) {
    this.store = store;
  }

  /** Revisions of {@code key}, newest first; {@code pageNo} from 1. */
  public Page<Revision> page(ConfigKey key, int pageNo, int pageSize) {
    byte[] prefix = Keys.historyPrefix(key);
    long skip = (long) (pageNo - 1) * pageSize;
    List<Revision> items = new ArrayList<>();
    int[] total = {0};
    store.scan(ConfigDomain.HISTORY, prefix, (k, v) -> {
      if (!Keys.startsWith(k, prefix)) {
        return false;
      }
      if (total[0] >= skip && items.size() < pageSize) {
        items.add(parse(v));
      }
      total[0]++;
      return true;
    });
    int pages = (total[0] + pageSize - 1) / pageSize;
    return new Page<>(total[0], pageNo, pages, List.copyOf(items));
  }

  public Optional<Revision> revision(ConfigKey key, long id) {
    byte[] wanted = Keys.history(key, id);
    List<Revision> found = new ArrayList<>(1);
    store.scan(ConfigDomain.HISTORY, wanted, (k, v) -> {
      if (java.util.Arrays.equals(k, wanted)) {
        found.add(parse(v));
      }
      return false;
    });
    return found.stream().findFirst();
  }

  /** The newest revision of {@code key} older than {@code id}. */
  public Optional<Revision> previous(ConfigKey key, long id) {
    byte[] prefix = Keys.historyPrefix(key);
    List<Revision> found = new ArrayList<>(1);
    store.scan(ConfigDomain.HISTORY, Keys.history(key, id), (k, v) -> {
      if (!Keys.startsWith(k, prefix) || k.length != prefix.length + Long.BYTES) {
        return false;
      }
      if (Keys.historyId(k) < id) {
        found.add(parse(v));
        return false;
      }
      return true;
    });
    return found.stream().findFirst();
  }

  private static Revision parse(byte[] bytes) {
    try {
      return Records.revision(RevisionRecord.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a config history row is unreadable", e);
    }
  }
}
