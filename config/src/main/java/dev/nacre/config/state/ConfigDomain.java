package dev.nacre.config.state;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.state.StateDomain;
import dev.nacre.proto.config.ConfigItemRecord;
import dev.nacre.proto.config.ConfigOperation;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import dev.nacre.storage.StorageException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configuration service's part of the replicated state: applies committed {@link
 * ConfigOperation}s to its column families and to the contents in memory, which serve every read
 * but history's. After each applied change, and after a snapshot is installed, it tells {@code
 * changes} which keys changed (on the applying thread).
 *
 * <p>Families: {@value #FORMAL}, {@value #BETA}, {@value #TAGS} (current contents, by config key,
 * the tag's after the key), {@value #HISTORY} (revisions, see {@link Keys}), {@value
 * #HISTORY_BY_TIME} (revision keys by modified time, for retention) and {@value #META} (the last
 * revision id).
 *
 * <p>{@link #apply} and {@link #load} come from the state machine's one applying thread; the
 * reads may come from any thread.
 */
public final class ConfigDomain implements StateDomain {
  private static final Logger log = LoggerFactory.getLogger(ConfigDomain.class);
  /** The first byte of config's operations in the shared log. */
  public static final byte KIND = 'C';
  public static final String FORMAL = "config-formal";
  public static final String BETA = "config-beta";
  public static final String TAGS = "config-tag";
  public static final String HISTORY = "config-history";
  public static final String HISTORY_BY_TIME = "config-history-time";
  public static final String META = "config-meta";
  static final List<String> FAMILIES = List.of(FORMAL, BETA, TAGS, HISTORY, HISTORY_BY_TIME, META);
  /**
   * Starts the message of a refusal because a compare-and-set md5 did not match; every other
   * refusal is invalid input.
   */
  public static final String CONFLICT = "md5 conflict: ";

  private final Consumer<ConfigKey> changes;
  private volatile ConfigState state = new ConfigState();
  private volatile RocksStore store;

  /** @param changes told of each key whose content changed, on the applying thread; must not block */
  public ConfigDomain(Consumer<ConfigKey> changes) {
    this.changes = changes;
  }

  @Override
  public byte kind() {
    return KIND;
  }

  @Override
  public String name() {
    return "config";
  }

  @Override
  public List<String> families() {
    return FAMILIES;
  }

  @Override
  public Applied apply(RocksStore store, long logIndex, byte[] operation, int offset, Batch entry) {
    this.store = store;
    ConfigOperation op;
    try {
      op = ConfigOperation.parser().parseFrom(operation, offset, operation.length - offset);
    } catch (InvalidProtocolBufferException e) {
      throw new OperationRejectedException("entry " + logIndex + " is not a config operation: " + e.getMessage());
    }
    ConfigApplier applier = new ConfigApplier(store, state, logIndex, entry, this::changed);
    return switch (op.getOpCase()) {
      case PUBLISH -> applier.publish(op.getPublish());
      case REMOVE -> applier.remove(op.getRemove());
      case PURGE_HISTORY -> applier.purge(op.getPurgeHistory());
      case OP_NOT_SET -> throw new OperationRejectedException(
          "entry " + logIndex + " holds an empty config operation; is this member older than the others?");
    };
  }

  private void changed(ConfigKey key) {
    try {
      changes.accept(key);
    } catch (RuntimeException e) {
      log.warn("A listener of {} failed; the change is applied: {}", key, e.toString());
    }
  }

  /**
   * Reads every current content into a new memory state, swapped in at once, then tells of the
   * keys whose contents differ from before (a snapshot install changes many at once).
   */
  @Override
  public void load(RocksStore store) {
    long start = System.nanoTime();
    ConfigState next = new ConfigState();
    try {
      for (String family : List.of(FORMAL, BETA, TAGS)) {
        store.forEach(family, (k, v) -> next.put(Records.item(parse(v))));
      }
    } catch (IllegalStateException e) {
      throw new StorageException("config data in " + store.dir() + " is unreadable; restore the folder from a"
          + " snapshot or remove it so the node installs one from the leader", e);
    }
    ConfigState previous = state;
    this.store = store;
    state = next;
    Set<ConfigKey> changed = next.changedKeys(previous);
    changed.forEach(this::changed);
    log.info("Loaded config state from {} at applied index {} in {} ms: {} configurations, {} changed",
        store.dir(), store.appliedIndex(), (System.nanoTime() - start) / 1_000_000, next.count(), changed.size());
  }

  private static ConfigItemRecord parse(byte[] bytes) {
    try {
      return ConfigItemRecord.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  public Optional<ConfigItem> formal(ConfigKey key) {
    return state.formal(key);
  }

  public Optional<ConfigItem> beta(ConfigKey key) {
    return state.beta(key);
  }

  public Optional<ConfigItem> tagged(ConfigKey key, String tag) {
    return state.tagged(key, tag);
  }

  /** The tags' contents of a key, by tag. */
  public Map<String, ConfigItem> tags(ConfigKey key) {
    return state.tags(key);
  }

  /** Every formal content: a live view, safe to iterate while changes are applied. */
  public Collection<ConfigItem> formals() {
    return state.formals();
  }

  public int count() {
    return state.count();
  }

  /** The revisions, read from RocksDB; from any thread. */
  public ConfigHistory history() {
    RocksStore current = store;
    if (current == null) {
      throw new IllegalStateException("the config state is not loaded yet");
    }
    return new ConfigHistory(current);
  }
}
