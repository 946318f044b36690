package dev.nacre.node.configs.grpc;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** Counts notifications by outcome, and passes each on to another observer. Thread-safe. */
public final class ConfigPushCounts implements ConfigPushObserver {
  private final Map<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);
  private final ConfigPushObserver next;

  public ConfigPushCounts() {
    this(NONE);
  }

  public ConfigPushCounts(ConfigPushObserver next) {
    this.next = next;
    for (Outcome o : Outcome.values()) {
      counts.put(o, new LongAdder());
    }
  }

  @Override
  public void notified(Outcome outcome, long nanos) {
    counts.get(outcome).increment();
    next.notified(outcome, nanos);
  }

  public long count(Outcome outcome) {
    return counts.get(outcome).sum();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("ConfigPushCounts[");
    counts.forEach((o, n) -> s.append(o.name().toLowerCase()).append('=').append(n.sum()).append(' '));
    return s.toString().trim() + "]";
  }
}
