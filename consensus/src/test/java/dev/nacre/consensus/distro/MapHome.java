package dev.nacre.consensus.distro;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * A {@link RecordHome} as an application keeps one: a concurrent map of the keys starting with
 * {@code h:}, written by the test's threads through {@link OwnWrites} and by the replicator.
 */
final class MapHome implements RecordHome {
  static final String PREFIX = "h:";

  private final Map<String, DistroRecord> records = new ConcurrentHashMap<>();
  private volatile OwnWrites writes;
  /** The thread that last listed the records. */
  volatile String listedOn;

  void attach(OwnWrites writes) {
    this.writes = writes;
  }

  /**
   * This member writes {@code value} (or deletes, when null) on the caller's thread, and reports
   * the write once it is readable.
   */
  DistroRecord write(String key, String value) {
    OwnWrites w = writes;
    return w.write(() -> {
      DistroRecord[] before = new DistroRecord[1];
      DistroRecord next = records.compute(key, (k, held) -> {
        before[0] = held;
        long revision = w.nextRevision(held == null ? 0 : held.revision());
        return value == null
            ? DistroRecord.tombstone(k, w.selfId(), revision)
            : DistroRecord.live(k, w.selfId(), revision, value.getBytes(StandardCharsets.UTF_8));
      });
      w.stored(key, before[0] == null ? null : RecordStamp.of(before[0]), RecordStamp.of(next));
      return next;
    });
  }

  /** Live keys and their values. */
  Map<String, String> view() {
    Map<String, String> out = new TreeMap<>();
    records.forEach((k, r) -> {
      if (!r.tombstone()) {
        out.put(k, new String(r.value(), StandardCharsets.UTF_8));
      }
    });
    return out;
  }

  /** Every record held, tombstones included. */
  Map<String, DistroRecord> held() {
    return new TreeMap<>(records);
  }

  @Override
  public boolean homes(String key) {
    return key.startsWith(PREFIX);
  }

  /** Values starting with {@code kept:} stand for what outlives its owner's restart. */
  @Override
  public boolean outlivesRestart(DistroRecord r) {
    return new String(r.value(), StandardCharsets.UTF_8).startsWith("kept:");
  }

  @Override
  public Optional<DistroRecord> get(String key) {
    return Optional.ofNullable(records.get(key));
  }

  @Override
  public Stored store(DistroRecord r, Predicate<RecordStamp> accept) {
    RecordStamp[] previous = new RecordStamp[1];
    boolean[] stored = {false};
    records.compute(r.key(), (k, held) -> {
      previous[0] = held == null ? null : RecordStamp.of(held);
      if (!accept.test(previous[0])) {
        return held;
      }
      stored[0] = true;
      return r;
    });
    return stored[0] ? new Stored(true, previous[0]) : Stored.REFUSED;
  }

  @Override
  public boolean removeIf(String key, RecordStamp held) {
    boolean[] removed = {false};
    records.computeIfPresent(key, (k, r) -> {
      if (!held.stamps(r)) {
        return r;
      }
      removed[0] = true;
      return null;
    });
    return removed[0];
  }

  @Override
  public void forEachStamp(BiConsumer<String, RecordStamp> action) {
    records.forEach((k, r) -> action.accept(k, RecordStamp.of(r)));
  }

  @Override
  public List<DistroRecord> records(Predicate<RecordStamp> which) {
    listedOn = Thread.currentThread().getName();
    List<DistroRecord> out = new ArrayList<>();
    records.values().forEach(r -> {
      if (which.test(RecordStamp.of(r))) {
        out.add(r);
      }
    });
    return out;
  }
}
