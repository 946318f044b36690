package dev.nacre.node.cluster;

import dev.nacre.proto.peer.PingResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Every member's state as this node sees it, driven by ping outcomes. Pure bookkeeping: no
 * threads, no IO; the pinger feeds it. Thread-safe (synchronized; a handful of members).
 *
 * <p>A member becomes SUSPICIOUS after its first missed ping and DOWN after
 * {@code failuresToDown} in a row; one answered ping makes it UP again. This node is always UP.
 */
public final class MemberTable {

  /**
   * One member's last known state and what it said of its Raft role.
   *
   * @param raftApplyStalledMs what it said of its state machine's stall (see the ping answer)
   * @param raftCommitIndex the commit index it said it knows; -1 before it answered (a member of
   *     an older version answers 0)
   * @param raftAppliedIndex the index its state machine said it applied; as raftCommitIndex
   */
  public record Member(String address, MemberState state, int failures, boolean ready, String raftRole,
      String raftLeader, long raftTerm, long raftApplyStalledMs, int clients, long raftCommitIndex,
      long raftAppliedIndex) {}

  private final String self;
  private final int failuresToDown;
  private final Map<String, Member> members = new LinkedHashMap<>();
  private final List<Consumer<List<String>>> upListeners = new CopyOnWriteArrayList<>();
  /** Pings in a row that each member refused because it does not count this node as a member. */
  private final Map<String, Integer> refusalsInARow = new LinkedHashMap<>();

  /** Every member but self starts DOWN until it answers: ownership must not land on the unknown. */
  public MemberTable(String self, List<String> addresses, int failuresToDown) {
    if (failuresToDown < 1) {
      throw new IllegalArgumentException("failuresToDown must be at least 1, was " + failuresToDown);
    }
    this.self = self;
    this.failuresToDown = failuresToDown;
    for (String a : addresses) {
      members.put(a, new Member(a, a.equals(self) ? MemberState.UP : MemberState.DOWN,
          a.equals(self) ? 0 : failuresToDown, a.equals(self), "", "", 0, 0, 0, -1, -1));
    }
  }

  /** A member added to the cluster: DOWN until it answers a ping, like every member at start. */
  public synchronized void add(String address) {
    members.putIfAbsent(address, new Member(address, MemberState.DOWN, failuresToDown, false, "", "", 0, 0, 0, -1, -1));
  }

  /** A member removed from the cluster: no longer pinged, no longer counted for ownership. */
  public void remove(String address) {
    List<String> before;
    List<String> after;
    synchronized (this) {
      if (address.equals(self) || !members.containsKey(address)) {
        return;
      }
      before = ownershipMembers();
      members.remove(address);
      after = ownershipMembers();
    }
    if (!before.equals(after)) {
      upListeners.forEach(l -> l.accept(after));
    }
  }

  /** Called with the new sorted list of members counted for ownership whenever it changes. */
  public void onOwnershipMembersChanged(Consumer<List<String>> listener) {
    upListeners.add(listener);
  }

  /**
   * Forgets the refusals so far: this node has just seen itself listed in a newer configuration,
   * which the others may not have followed yet (a member being added is refused until then).
   */
  public synchronized void forgetRefusals() {
    refusalsInARow.clear();
  }

  /** {@code address} refused a ping: to it, this node is not a member (see {@link #refusedByEveryOther}). */
  public synchronized void pingRefusedAsNonMember(String address) {
    refusalsInARow.merge(address, 1, Integer::sum);
  }

  /**
   * True when every other member has refused at least {@code rounds} pings in a row as coming from
   * a non-member: this node was removed while it could not learn it (it was down). A few rounds,
   * not one: a member just added is refused until the others have followed the new configuration.
   */
  public synchronized boolean refusedByEveryOther(int rounds) {
    List<String> others = others();
    return !others.isEmpty() && others.stream().allMatch(m -> refusalsInARow.getOrDefault(m, 0) >= rounds);
  }

  public void pingAnswered(String address, PingResponse answer) {
    synchronized (this) {
      refusalsInARow.remove(address);
    }
    update(address, new Member(address, MemberState.UP, 0, answer.getReady(), answer.getRaftRole(),
        answer.getRaftLeader(), answer.getRaftTerm(), answer.getRaftApplyStalledMs(), answer.getClients(),
        answer.getRaftCommitIndex(), answer.getRaftAppliedIndex()));
  }

  /** Client connections of each other member that is UP and ready, as its last ping answer said. */
  public synchronized Map<String, Integer> readyPeerClients() {
    Map<String, Integer> out = new LinkedHashMap<>();
    members.values().forEach(m -> {
      if (!m.address().equals(self) && m.state() == MemberState.UP && m.ready()) {
        out.put(m.address(), m.clients());
      }
    });
    return out;
  }

  public void pingFailed(String address) {
    Member m;
    synchronized (this) {
      m = members.get(address);
    }
    if (m == null) {
      return;
    }
    int failures = m.failures() + 1;
    MemberState state = failures >= failuresToDown ? MemberState.DOWN : MemberState.SUSPICIOUS;
    update(address, new Member(address, state, failures, m.ready(), m.raftRole(), m.raftLeader(), m.raftTerm(),
        m.raftApplyStalledMs(), m.clients(), m.raftCommitIndex(), m.raftAppliedIndex()));
  }

  private void update(String address, Member next) {
    List<String> before;
    List<String> after;
    synchronized (this) {
      if (!members.containsKey(address) || address.equals(self)) {
        return;
      }
      before = ownershipMembers();
      members.put(address, next);
      after = ownershipMembers();
    }
    if (!before.equals(after)) {
      upListeners.forEach(l -> l.accept(after));
    }
  }

  /**
   * Members that own data: UP or SUSPICIOUS (a single lost ping must not move ownership). Sorted,
   * identical on every member that sees the same states.
   */
  public synchronized List<String> ownershipMembers() {
    List<String> out = new ArrayList<>();
    for (Member m : members.values()) {
      if (m.state() != MemberState.DOWN) {
        out.add(m.address());
      }
    }
    Collections.sort(out);
    return out;
  }

  public synchronized List<Member> members() {
    return List.copyOf(members.values());
  }

  public synchronized MemberState state(String address) {
    Member m = members.get(address);
    return m == null ? MemberState.DOWN : m.state();
  }

  public String self() {
    return self;
  }

  public synchronized List<String> others() {
    return members.keySet().stream().filter(a -> !a.equals(self)).toList();
  }
}
