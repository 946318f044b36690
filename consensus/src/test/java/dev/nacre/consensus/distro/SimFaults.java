package dev.nacre.consensus.distro;

/**
 * The faults of a {@link SimCluster}, all drawn from its seeded random: lossy links, one-way cuts,
 * isolated members, false DOWN suspicions, crashes with restarts; membership changes reach each
 * observer after its own detection delay.
 */
final class SimFaults {
  private final SimCluster c;
  /** Scheduled fault actions of an earlier epoch do nothing: {@link #heal()} ends them all. */
  private int faultEpoch;

  SimFaults(SimCluster cluster) {
    this.c = cluster;
  }

  /** Schedules the end (or a later step) of a fault; {@link #heal()} cancels it. */
  void later(long at, Runnable action) {
    int epoch = faultEpoch;
    c.net.schedule(at, () -> {
      if (epoch == faultEpoch) {
        action.run();
      }
    });
  }

  void randomFault() {
    String a = c.ids.get(c.random.nextInt(c.ids.size()));
    String b = c.ids.get(c.random.nextInt(c.ids.size()));
    long duration = 300 + c.random.nextInt(7000);
    switch (c.random.nextInt(5)) {
      case 0 -> { // lossy link
        double rate = c.random.nextDouble() * 0.4;
        c.net.setDropRate(a, b, rate);
        later(c.now + duration, () -> c.net.setDropRate(a, b, 0));
        c.note("link " + a + ">" + b + " drops " + rate);
      }
      case 1 -> { // one-way cut
        c.net.cut(a, b);
        later(c.now + duration, () -> c.net.restore(a, b));
        c.note("cut " + a + ">" + b);
      }
      case 2 -> { // isolate a member both ways, and let some members suspect it
        for (String other : c.ids) {
          c.net.cut(a, other);
          c.net.cut(other, a);
        }
        later(c.now + duration, () -> c.ids.forEach(o -> {
          c.net.restore(a, o);
          c.net.restore(o, a);
        }));
        c.note("isolate " + a + " for " + duration);
        suspect(b, a, duration);
      }
      case 3 -> suspect(a, b, duration);
      default -> crash(a, duration);
    }
  }

  /** {@code observer} marks {@code member} DOWN for a while, whatever the truth. */
  void suspect(String observer, String member, long duration) {
    if (observer.equals(member)) {
      return;
    }
    membership(observer, member, false, c.now + c.random.nextInt(200));
    membership(observer, member, true, c.now + duration);
  }

  void crash(String id, long downFor) {
    SimCluster.Node n = c.nodes.get(id);
    long crashedCount = c.nodes.values().stream().filter(x -> !x.alive).count();
    if (!n.alive || crashedCount >= (c.ids.size() - 1) / 2) {
      return;
    }
    n.alive = false;
    c.crashes++;
    c.note("crash " + id + " for " + downFor);
    for (String o : c.ids) {
      membership(o, id, false, c.now + 100 + c.random.nextInt(1500));
    }
    later(c.now + downFor, () -> restart(id));
  }

  void restart(String id) {
    SimCluster.Node n = c.nodes.get(id);
    if (n.alive) {
      return;
    }
    c.note("restart " + id);
    n.boot();
    for (String o : c.ids) {
      membership(o, id, true, c.now + 50 + c.random.nextInt(800));
      if (!c.nodes.get(o).alive) {
        membership(id, o, false, c.now + 100 + c.random.nextInt(500));
      }
    }
  }

  void membership(String observer, String member, boolean up, long at) {
    if (observer.equals(member)) {
      return;
    }
    later(at, () -> {
      SimCluster.Node o = c.nodes.get(observer);
      if (!o.alive) {
        return;
      }
      if (up) {
        o.upView.add(member);
      } else {
        o.upView.remove(member);
      }
      c.note(observer + " sees " + member + (up ? " UP" : " DOWN"));
      c.handle(o, up ? o.core.memberUp(member, c.now) : o.core.memberDown(member, c.now));
    });
  }

  /** Ends every fault, restarts crashed members, and tells everyone that everyone is UP. */
  void heal() {
    c.note("heal");
    faultEpoch++;
    c.net.healAll();
    c.nodes.values().stream().filter(n -> !n.alive).forEach(n -> {
      c.note("restart " + n.id);
      n.boot();
    });
    for (SimCluster.Node o : c.nodes.values()) {
      for (String m : c.ids) {
        if (!m.equals(o.id)) {
          o.upView.add(m);
          c.handle(o, o.core.memberUp(m, c.now));
        }
      }
    }
  }
}
