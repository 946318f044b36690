package dev.nacre.config.state;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.Revision;
import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.state.StateDomain.Applied;
import dev.nacre.proto.config.PublishConfig;
import dev.nacre.proto.config.PurgeHistory;
import dev.nacre.proto.config.RemoveConfig;
import dev.nacre.proto.config.PurgeResult;
import dev.nacre.proto.config.RemoveResult;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Turns one config operation into its RocksDB mutations and memory change. Deterministic: it reads
 * only the replicated state and the operation (times come in the operation).
 *
 * <p>Revision ids: {@code max(last id + 1, logIndex * 1024)}, the last id kept in {@value
 * ConfigDomain#META} and written in the same batch. So they are unique and increasing across
 * restarts and snapshots, and an id tells roughly which log entry wrote it.
 */
final class ConfigApplier {
  static final long IDS_PER_ENTRY = 1024;

  private final RocksStore store;
  private final ConfigState state;
  private final long logIndex;
  private final Batch entry;
  private final Consumer<ConfigKey> changes;
  private final Batch batch = new Batch();
  private long lastId;

  ConfigApplier(RocksStore store, ConfigState state, long logIndex, Batch entry, Consumer<ConfigKey> changes) {
    this.store = store;
    this.state = state;
    this.logIndex = logIndex;
    this.entry = entry;
    this.changes = changes;
    this.lastId = store.get(ConfigDomain.META, Keys.REVISION_COUNTER, entry).map(Keys::longOf).orElse(0L);
  }

  Applied publish(PublishConfig p) {
    ConfigKey key = Records.key(p.getKey());
    if (key.dataId().isEmpty() || key.group().isEmpty()) {
      throw new OperationRejectedException("a publish needs a dataId and a group");
    }
    if (!p.getBetaIps().isEmpty() && !p.getTag().isEmpty()) {
      throw new OperationRejectedException("a publish is for beta addresses or for a tag, not both");
    }
    Optional<ConfigItem> current = !p.getBetaIps().isEmpty() ? state.beta(key)
        : !p.getTag().isEmpty() ? state.tagged(key, p.getTag()) : state.formal(key);
    String currentMd5 = current.map(ConfigItem::md5).orElse("");
    // An absent configuration is created whatever md5 a compare-and-set names, as Nacos does.
    if (p.hasCasMd5() && current.isPresent() && !p.getCasMd5().equals(currentMd5)) {
      throw new OperationRejectedException(ConfigDomain.CONFLICT + key + " has md5 '" + currentMd5
          + "', the publish expected '" + p.getCasMd5() + "'; read it again and retry");
    }
    String md5 = Records.md5(p.getContent());
    long created = current.map(ConfigItem::createdMillis).orElse(p.getTimeMillis());
    ConfigItem item = new ConfigItem(key, p.getContent(), md5, p.getType(), p.getAppName(), p.getDesc(), p.getTags(),
        p.getEncryptedDataKey(), p.getUser(), p.getSourceIp(), p.getBetaIps(), p.getTag(), created,
        p.getTimeMillis(), logIndex);
    batch.put(family(item), itemKey(item), Records.record(item).toByteArray());
    addRevision(item, current.isPresent() ? "U" : "I", p.getUser(), p.getSourceIp(), p.getTimeMillis());
    boolean changed = !md5.equals(currentMd5) || current.isEmpty()
        || !current.get().betaIps().equals(item.betaIps());
    return new Applied(finish(), () -> {
      state.put(item);
      if (changed) {
        changes.accept(key);
      }
    }, Records.record(item).toByteArray());
  }

  Applied remove(RemoveConfig r) {
    ConfigKey key = Records.key(r.getKey());
    List<ConfigItem> removed = new ArrayList<>();
    if (r.getBeta()) {
      state.beta(key).ifPresent(removed::add);
    } else if (!r.getTag().isEmpty()) {
      state.tagged(key, r.getTag()).ifPresent(removed::add);
    } else {
      // Nacos deletes a configuration with its gray (beta and tag) contents.
      state.formal(key).ifPresent(removed::add);
      state.beta(key).ifPresent(removed::add);
      removed.addAll(state.tags(key).values());
    }
    for (ConfigItem item : removed) {
      batch.delete(family(item), itemKey(item));
      addRevision(item, "D", r.getUser(), r.getSourceIp(), r.getTimeMillis());
    }
    byte[] result = RemoveResult.newBuilder().setRemoved(!removed.isEmpty()).build().toByteArray();
    if (removed.isEmpty()) {
      return new Applied(batch, () -> {}, result);
    }
    return new Applied(finish(), () -> {
      removed.forEach(state::remove);
      changes.accept(key);
    }, result);
  }

  /** Idempotent: drops what is older than the bound, up to the limit; a second run finds less. */
  Applied purge(PurgeHistory p) {
    int limit = p.getLimit() > 0 ? p.getLimit() : Integer.MAX_VALUE;
    int[] purged = {0};
    store.scan(ConfigDomain.HISTORY_BY_TIME, new byte[0], (k, v) -> {
      if (purged[0] >= limit || Keys.timeOf(k) >= p.getBeforeMillis()) {
        return false;
      }
      batch.delete(ConfigDomain.HISTORY_BY_TIME, k);
      batch.delete(ConfigDomain.HISTORY, v);
      purged[0]++;
      return true;
    });
    return new Applied(batch, () -> {}, PurgeResult.newBuilder().setPurged(purged[0]).build().toByteArray());
  }

  private void addRevision(ConfigItem item, String operation, String user, String sourceIp, long timeMillis) {
    long id = Math.max(lastId + 1, Math.multiplyExact(logIndex, IDS_PER_ENTRY));
    lastId = id;
    String publishType = !item.betaIps().isEmpty() ? "beta" : !item.tag().isEmpty() ? "tag" : "formal";
    Revision revision = new Revision(id, item.key(), operation, publishType, item.content(), item.md5(), item.type(),
        item.appName(), item.encryptedDataKey(), user, sourceIp, item.tag(), item.createdMillis(), timeMillis);
    byte[] historyKey = Keys.history(item.key(), id);
    batch.put(ConfigDomain.HISTORY, historyKey, Records.record(revision).toByteArray());
    batch.put(ConfigDomain.HISTORY_BY_TIME, Keys.byTime(timeMillis, id), historyKey);
  }

  private Batch finish() {
    return batch.put(ConfigDomain.META, Keys.REVISION_COUNTER, Keys.longBytes(lastId));
  }

  private static String family(ConfigItem item) {
    return !item.betaIps().isEmpty() ? ConfigDomain.BETA : !item.tag().isEmpty() ? ConfigDomain.TAGS : ConfigDomain.FORMAL;
  }

  private static byte[] itemKey(ConfigItem item) {
    return item.tag().isEmpty() ? Keys.config(item.key()) : Keys.tag(item.key(), item.tag());
  }
}
