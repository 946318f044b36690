package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.List;

/** Collects one event's effects, merging consecutive applies (and removes) into one effect. */
final class EffectBuffer {
  private final List<DistroEffect> effects = new ArrayList<>();
  private final List<DistroRecord> run = new ArrayList<>();
  private boolean runIsApply;

  void apply(DistroRecord r) {
    switchRun(true);
    run.add(r);
  }

  void remove(DistroRecord r) {
    switchRun(false);
    run.add(r);
  }

  void add(DistroEffect e) {
    closeRun();
    effects.add(e);
  }

  List<DistroEffect> drain() {
    closeRun();
    List<DistroEffect> out = List.copyOf(effects);
    effects.clear();
    return out;
  }

  private void switchRun(boolean apply) {
    if (!run.isEmpty() && runIsApply != apply) {
      closeRun();
    }
    runIsApply = apply;
  }

  private void closeRun() {
    if (run.isEmpty()) {
      return;
    }
    effects.add(runIsApply
        ? new DistroEffect.ApplyRecords(run)
        : new DistroEffect.RemoveRecords(run));
    run.clear();
  }
}
