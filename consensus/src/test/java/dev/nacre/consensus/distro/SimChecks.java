package dev.nacre.consensus.distro;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** What {@link SimCluster} checks: invariants after every step, convergence at the end. */
final class SimChecks {
  private SimChecks() {}

  /**
   * After every step, on every live member: each record it holds is exactly one its owner wrote
   * (so no revision newer than the owner ever produced, no corrupted value); the handler's view
   * equals the core's live records; no peer queue exceeds the cap; and a member's own latest
   * write is never replaced by an older record, unless records were dropped since (owner lost,
   * or absent from its owner's set), which is when an older copy may legitimately come back.
   */
  static void checkInvariants(SimCluster c) {
    for (SimCluster.Node n : c.nodes.values()) {
      if (!n.alive) {
        continue;
      }
      for (DistroRecord r : n.core.allRecords()) {
        DistroRecord original = c.produced.get(r.owner() + "|" + r.key() + "|" + r.revision());
        if (!r.equals(original)) {
          c.fail(n.id + " holds " + r + " that its owner never wrote");
        }
      }
      if (!n.handlerView.equals(n.core.liveRecords())) {
        c.fail(n.id + " handler view differs from its core");
      }
      for (PeerPipeline p : n.core.pipelines()) {
        if (p.pendingCount() > SimCluster.CONFIG.maxPendingKeysPerPeer()) {
          c.fail(n.id + " queues " + p.pendingCount() + " keys for " + p.peer());
        }
      }
      n.lastWriteThisRun.forEach((key, written) -> n.core.record(key).ifPresent(held -> {
        boolean droppedSince =
            n.core.droppedWithoutReplacement() > n.droppedCountAtWrite.get(key);
        if (!held.equals(written) && !held.isNewerThan(written) && !droppedSince) {
          c.fail(n.id + " holds " + held + " older than its own write " + written);
        }
      }));
    }
  }

  /**
   * At the end: every member is up and ready, all live views are identical, each equals its
   * handler's view, and every member's view of each owner's records equals that owner's own.
   */
  static void assertConverged(SimCluster c) {
    SimCluster.Node first = c.nodes.values().iterator().next();
    Map<String, DistroRecord> reference = new TreeMap<>(first.core.liveRecords());
    for (SimCluster.Node n : c.nodes.values()) {
      if (!n.alive || !n.core.isReady()) {
        c.fail(n.id + " is not up and ready at the end");
      }
      Map<String, DistroRecord> view = new TreeMap<>(n.core.liveRecords());
      if (!view.equals(reference)) {
        List<String> diff = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(view.keySet());
        keys.addAll(reference.keySet());
        keys.stream().filter(k -> !java.util.Objects.equals(view.get(k), reference.get(k)))
            .forEach(k -> diff.add(k + ": " + first.id + "=" + reference.get(k) + " " + n.id + "="
                + view.get(k)));
        c.fail("views differ: " + diff);
      }
      if (!n.handlerView.equals(view)) {
        c.fail(n.id + " handler view differs from its core at the end");
      }
    }
    for (SimCluster.Node n : c.nodes.values()) {
      for (String owner : c.ids) {
        if (!liveOwnedBy(n, owner).equals(liveOwnedBy(c.nodes.get(owner), owner))) {
          c.fail(n.id + "'s view of " + owner + "'s records differs from " + owner + "'s own");
        }
      }
    }
  }

  static Map<String, DistroRecord> liveOwnedBy(SimCluster.Node n, String owner) {
    Map<String, DistroRecord> out = new TreeMap<>();
    n.core.liveRecords().forEach((k, r) -> {
      if (r.owner().equals(owner)) {
        out.put(k, r);
      }
    });
    return out;
  }
}
