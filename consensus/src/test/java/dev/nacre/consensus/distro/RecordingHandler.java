package dev.nacre.consensus.distro;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link DistroHandler} that keeps the application's view (key to value) like naming would: it
 * applies what the replicator hands it, and the test applies its own local writes.
 */
final class RecordingHandler implements DistroHandler {
  final Map<String, String> view = new ConcurrentHashMap<>();
  volatile Map<String, String> viewWhenReady;

  @Override
  public void apply(List<DistroRecord> records) {
    for (DistroRecord r : records) {
      if (r.tombstone()) {
        view.remove(r.key());
      } else {
        view.put(r.key(), new String(r.value(), StandardCharsets.UTF_8));
      }
    }
  }

  @Override
  public void remove(List<DistroRecord> records) {
    records.forEach(r -> view.remove(r.key()));
  }

  @Override
  public void ready() {
    viewWhenReady = new TreeMap<>(view);
  }

  Map<String, String> snapshot() {
    return new TreeMap<>(view);
  }
}
