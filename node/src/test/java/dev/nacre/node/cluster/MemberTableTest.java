package dev.nacre.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.proto.peer.PingResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class MemberTableTest {
  private final MemberTable table = new MemberTable("a:1", List.of("a:1", "b:1", "c:1"), 3);

  @Test
  void othersStartDownAndSelfIsAlwaysUp() {
    assertThat(table.ownershipMembers()).containsExactly("a:1");
    assertThat(table.state("a:1")).isEqualTo(MemberState.UP);
    table.pingFailed("a:1");
    assertThat(table.state("a:1")).isEqualTo(MemberState.UP);
  }

  @Test
  void suspiciousAfterOneMissDownAfterThreeUpAfterOneAnswer() {
    List<List<String>> changes = new ArrayList<>();
    table.onOwnershipMembersChanged(changes::add);
    table.pingAnswered("b:1", PingResponse.newBuilder().setReady(true).setRaftRole("FOLLOWER").setRaftLeader("a:1").setRaftTerm(2).setRaftApplyStalledMs(12_000).build());
    assertThat(table.state("b:1")).isEqualTo(MemberState.UP);
    assertThat(table.members().get(1).raftApplyStalledMs()).as("as the member said").isEqualTo(12_000);
    table.pingFailed("b:1");
    assertThat(table.state("b:1")).isEqualTo(MemberState.SUSPICIOUS);
    assertThat(table.ownershipMembers()).as("one lost ping moves no ownership").containsExactly("a:1", "b:1");
    table.pingFailed("b:1");
    table.pingFailed("b:1");
    assertThat(table.state("b:1")).isEqualTo(MemberState.DOWN);
    table.pingAnswered("b:1", PingResponse.newBuilder().setReady(true).setRaftRole("FOLLOWER").setRaftLeader("a:1").setRaftTerm(2).setRaftApplyStalledMs(0).build());
    assertThat(changes).containsExactly(List.of("a:1", "b:1"), List.of("a:1"), List.of("a:1", "b:1"));
  }

  @Test
  void unknownMembersAreIgnoredAndBadSettingsRefused() {
    table.pingAnswered("x:9", PingResponse.newBuilder().setReady(true).build());
    assertThat(table.members()).extracting(MemberTable.Member::address).containsExactly("a:1", "b:1", "c:1");
    assertThatThrownBy(() -> new MemberTable("a:1", List.of("a:1"), 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
