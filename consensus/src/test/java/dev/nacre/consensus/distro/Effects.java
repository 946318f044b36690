package dev.nacre.consensus.distro;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Picks effects of one kind out of a core's answer. */
final class Effects {
  private Effects() {}

  static List<DistroEffect.SendBatch> batches(List<DistroEffect> effects) {
    return of(effects, DistroEffect.SendBatch.class);
  }

  static List<DistroEffect.SendBatch> batchesTo(String peer, List<DistroEffect> effects) {
    return batches(effects).stream().filter(b -> b.peer().equals(peer)).toList();
  }

  static List<DistroEffect.RequestSnapshot> requests(List<DistroEffect> effects) {
    return of(effects, DistroEffect.RequestSnapshot.class);
  }

  static List<DistroRecord> applied(List<DistroEffect> effects) {
    List<DistroRecord> out = new ArrayList<>();
    of(effects, DistroEffect.ApplyRecords.class).forEach(a -> out.addAll(a.records()));
    return out;
  }

  static List<DistroRecord> removed(List<DistroEffect> effects) {
    List<DistroRecord> out = new ArrayList<>();
    of(effects, DistroEffect.RemoveRecords.class).forEach(a -> out.addAll(a.records()));
    return out;
  }

  static <T> List<T> of(List<DistroEffect> effects, Class<T> type) {
    return effects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String text(DistroRecord r) {
    return new String(r.value(), StandardCharsets.UTF_8);
  }
}
