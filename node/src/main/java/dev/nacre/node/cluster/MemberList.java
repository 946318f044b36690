package dev.nacre.node.cluster;

import dev.nacre.node.config.MemberAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The cluster's members (main-port addresses, self included) as this node knows them now. It
 * starts as the configured list and then follows the Raft group's configuration, which the
 * operator changes ({@code nacre members add|remove}) and which every member keeps in its Raft
 * log: a restarted member takes the list from its log, not from its stale settings.
 *
 * <p>Thread-safe. Listeners run on the thread that replaced the list, in the order of changes.
 */
public final class MemberList {

  /** One replacement of the list: the new list and who came and went. */
  public record Change(List<MemberAddress> members, Set<MemberAddress> added, Set<MemberAddress> removed) {}

  private final MemberAddress self;
  private volatile List<MemberAddress> current;
  /** {@link #current} by member id, replaced with it: peer calls look their sender up here. */
  private volatile Map<String, MemberAddress> byId;
  /**
   * Log index of the latest Raft configuration seen that lists this node; -1 before any. A
   * configuration without it is a removal only when it comes later: a member being added first
   * replays the configurations from before its addition.
   */
  private long listedAt;
  private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();

  /** @param listedAt as {@link #listedAt()} remembered from an earlier run; -1 for none */
  public MemberList(MemberAddress self, List<MemberAddress> configured, long listedAt) {
    this.self = self;
    setCurrent(List.copyOf(configured));
    this.listedAt = listedAt;
  }

  /** Log index of the latest Raft configuration seen that lists this node; -1 before any. */
  public synchronized long listedAt() {
    return listedAt;
  }

  /**
   * Follows the Raft configuration at {@code logIndex} (negative: the configured one, before the
   * log has any). One that lists this node replaces the list; one that does not replaces it only
   * when it is later than the last that did (this node was removed), and is ignored otherwise
   * (this node, being added, is catching up through older ones). Returns true when the list changed.
   */
  public synchronized boolean follow(long logIndex, List<MemberAddress> members) {
    if (members.contains(self)) {
      listedAt = Math.max(listedAt, logIndex);
      return replace(members);
    }
    return listedAt >= 0 && logIndex > listedAt && replace(members);
  }

  public List<MemberAddress> current() {
    return current;
  }

  /** The current member whose id ({@code host:port}) is {@code id}; empty for anyone else. */
  public Optional<MemberAddress> member(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** False once this node has learnt that it was removed: it must not serve as a member. */
  public boolean includesSelf() {
    return current.contains(self);
  }

  /** Member addresses ({@code host:P}) of Raft peers ({@code host:P-1000}), in the group's order. */
  public static List<MemberAddress> membersOf(Map<String, String> raftPeers) {
    return raftPeers.values().stream().map(MemberAddress::ofRaftAddress).toList();
  }

  public MemberAddress self() {
    return self;
  }

  private void setCurrent(List<MemberAddress> members) {
    byId = members.stream().collect(Collectors.toUnmodifiableMap(MemberAddress::toString, m -> m, (a, b) -> a));
    current = members;
  }

  public void onChange(Consumer<Change> listener) {
    listeners.add(listener);
  }

  /**
   * Replaces the list, keeping the order of members that stay and appending new ones; returns
   * true when it changed. Synchronized so that listeners see changes one at a time, in order.
   */
  public synchronized boolean replace(List<MemberAddress> members) {
    Set<MemberAddress> next = new LinkedHashSet<>(members);
    Set<MemberAddress> added = new LinkedHashSet<>(next);
    added.removeAll(current);
    Set<MemberAddress> removed = new LinkedHashSet<>(current);
    removed.removeAll(next);
    if (added.isEmpty() && removed.isEmpty()) {
      return false;
    }
    List<MemberAddress> ordered = new ArrayList<>(current);
    ordered.removeAll(removed);
    ordered.addAll(added);
    setCurrent(List.copyOf(ordered));
    Change change = new Change(current, Set.copyOf(added), Set.copyOf(removed));
    listeners.forEach(l -> l.accept(change));
    return true;
  }
}
