package dev.nacre.consensus.state;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import dev.nacre.consensus.raft.ReplicatedStateMachine;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state machine of a Raft group shared by several {@link StateDomain}s: one RocksDB with every
 * domain's column families, the applied index written in the same atomic batch as each entry's
 * data, and snapshots as RocksDB checkpoints (subfolder {@code db}). So an entry that carries a
 * naming and a configuration operation is applied whole or not at all, and a replay after a crash
 * skips it or applies it whole.
 *
 * <p>{@link #apply} and {@link #installSnapshot} come from one thread at a time; {@link
 * #writeSnapshot} may run alongside apply.
 */
public final class DomainStateMachine implements ReplicatedStateMachine, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DomainStateMachine.class);
  private static final String SNAPSHOT_DB = "db";

  private final RocksStore store;
  private final StateDomain[] byKind = new StateDomain[256];
  private final List<StateDomain> domains;
  private volatile long currentTerm;
  private volatile long lastAppliedIndex;
  private volatile long lastAppliedTerm;

  private DomainStateMachine(RocksStore store, List<StateDomain> domains) {
    this.store = store;
    this.domains = List.copyOf(domains);
    for (StateDomain domain : domains) {
      byKind[domain.kind() & 0xff] = domain;
    }
  }

  /**
   * Opens (or creates) the database in {@code dir} for {@code domains} without reading it: {@link
   * #load} must run before anything is applied, on whichever thread should pay for it.
   */
  public static DomainStateMachine openUnread(Path dir, List<StateDomain> domains) {
    Set<Byte> kinds = new HashSet<>();
    Set<String> families = new HashSet<>();
    List<String> all = new ArrayList<>();
    for (StateDomain domain : domains) {
      if (!kinds.add(domain.kind())) {
        throw new IllegalArgumentException("two domains use the operation kind " + domain.kind());
      }
      for (String family : domain.families()) {
        if (!families.add(family)) {
          throw new IllegalArgumentException("two domains use the column family " + family);
        }
        all.add(family);
      }
    }
    return new DomainStateMachine(RocksStore.open(dir, all), domains);
  }

  /** As {@link #openUnread}, and reads every domain's state. */
  public static DomainStateMachine open(Path dir, List<StateDomain> domains) {
    DomainStateMachine machine = openUnread(dir, domains);
    machine.load();
    return machine;
  }

  /**
   * Applies the operations of one entry in order, each seeing the writes of those before it; all
   * of their mutations commit with the entry's index in one atomic write, and then their in-memory
   * effects run in order.
   */
  @Override
  public List<Outcome> apply(long logIndex, List<byte[]> operations) {
    if (logIndex <= lastAppliedIndex) {
      return Collections.nCopies(operations.size(), Outcome.ok());
    }
    Batch entry = new Batch();
    List<Outcome> outcomes = new ArrayList<>(operations.size());
    for (byte[] operation : operations) {
      outcomes.add(applyOne(logIndex, operation, entry));
    }
    // Also when every operation was refused: the entry is consumed, so a replay does not see it as pending.
    long term = currentTerm;
    store.commit(entry, logIndex, term);
    lastAppliedTerm = term;
    lastAppliedIndex = logIndex;
    return outcomes;
  }

  private Outcome applyOne(long logIndex, byte[] operation, Batch entry) {
    StateDomain domain = operation.length == 0 ? null : byKind[operation[0] & 0xff];
    if (domain == null) {
      log.debug("Refused an operation of log entry {}: no domain for its kind", logIndex);
      return Outcome.rejected("entry " + logIndex + " holds an operation of no known domain");
    }
    StateDomain.Applied applied;
    try {
      applied = domain.apply(store, logIndex, operation, 1, entry);
    } catch (OperationRejectedException e) {
      log.debug("Refused a {} operation of log entry {}: {}", domain.name(), logIndex, e.getMessage());
      return Outcome.rejected(e.getMessage());
    }
    entry.addAll(applied.batch());
    // Before the entry's RocksDB write: memory is rebuilt from RocksDB at start, and a failed
    // write stops this member (see StateMachineAdapter).
    applied.inMemory().run();
    return Outcome.ok(applied.result());
  }

  /** Reads every domain's state, from the thread that applies (or before there is one). */
  public void load() {
    lastAppliedIndex = store.appliedIndex();
    lastAppliedTerm = store.appliedTerm();
    currentTerm = Math.max(currentTerm, lastAppliedTerm);
    for (StateDomain domain : domains) {
      domain.load(store);
    }
  }

  /** The sizes of the RocksDB database that holds the replicated state. */
  public RocksStore.Stats storageStats() {
    return store.stats();
  }

  /** The database itself, for a domain's reads that its memory does not hold (histories). */
  public RocksStore store() {
    return store;
  }

  @Override
  public long lastAppliedIndex() {
    return lastAppliedIndex;
  }

  @Override
  public long lastAppliedTerm() {
    return lastAppliedTerm;
  }

  @Override
  public void setCurrentTerm(long term) {
    this.currentTerm = term;
  }

  @Override
  public void writeSnapshot(Path emptyDir) {
    store.checkpoint(emptyDir.resolve(SNAPSHOT_DB));
  }

  @Override
  public void installSnapshot(Path snapshotDir) {
    store.replaceWith(snapshotDir.resolve(SNAPSHOT_DB));
    load();
  }

  @Override
  public void close() {
    store.close();
  }
}
