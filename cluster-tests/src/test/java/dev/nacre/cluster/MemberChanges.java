package dev.nacre.cluster;

import static org.awaitility.Awaitility.await;

import dev.nacre.node.testkit.Http;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Growing and shrinking a {@link LocalCluster} the way an operator does it (scripts/cluster.sh
 * add-node, remove-node): through the admin API of a member, the new member started meanwhile.
 */
final class MemberChanges {
  static final String MEMBERS = "/nacre/v1/cluster/members";

  private MemberChanges() {}

  /**
   * Starts spare node {@code node} with {@code members} plus itself as its member list and, while
   * it starts, asks {@code asked} to add it. Returns the admin API's answer once both are done.
   */
  static Http.Response add(LocalCluster c, int node, Collection<Integer> members, int asked)
      throws InterruptedException {
    List<Integer> with = new ArrayList<>(members);
    with.add(node);
    c.setMembers(node, with);
    Thread starter = new Thread(() -> c.startNode(node), "start-new-member-" + node);
    starter.start();
    Http.Response r = c.http(asked).post(MEMBERS, Map.of("member", c.address(node)));
    starter.join(Duration.ofSeconds(60).toMillis());
    return r;
  }

  /**
   * Asks {@code asked} to remove {@code node}; once that succeeded, waits until the removed node
   * has learnt it (it then refuses clients) and stops it. Returns the admin API's answer.
   */
  static Http.Response remove(LocalCluster c, int node, int asked) {
    Http.Response r = c.http(asked).delete(MEMBERS, Map.of("member", c.address(node)));
    if (r.status() == 200) {
      await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
          .until(() -> c.node(node).readiness().notReadyReason().filter(why -> why.contains("removed")).isPresent());
      c.stopNode(node);
    }
    return r;
  }
}
