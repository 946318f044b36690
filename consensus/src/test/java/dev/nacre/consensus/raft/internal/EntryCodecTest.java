package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryCodecTest {
  @Test
  void aBatchRoundTripsAndAnEntryFromBeforeBatchingIsABatchOfOne() {
    byte[] a = {10, 1, 65};
    byte[] b = {};
    assertThat(EntryCodec.decodeBatch(EntryCodec.encodeBatch(List.of(a, b)))).containsExactly(a, b);
    byte[] bare = {0x0a, 2, 'h', 'i'}; // a protobuf message as entries held it before batching
    assertThat(EntryCodec.decodeBatch(bare)).containsExactly(bare);
  }

  @Test
  void outcomesTravelInOrderAndARejectionThrowsForItsOperationOnly() {
    byte[] reply = EntryCodec.encodeOutcomes(List.of(
        Outcome.ok("x".getBytes(StandardCharsets.UTF_8)), Outcome.rejected("exists"), Outcome.ok()));
    List<byte[]> results = EntryCodec.decodeOutcomes(reply, 3);
    assertThat(new String(ApplyResult.decode(results.get(0)), StandardCharsets.UTF_8)).isEqualTo("x");
    assertThatThrownBy(() -> ApplyResult.decode(results.get(1)))
        .isInstanceOf(OperationRejectedException.class).hasMessage("exists");
    assertThat(ApplyResult.decode(results.get(2))).isEmpty();
    assertThatThrownBy(() -> EntryCodec.decodeOutcomes(reply, 2)).hasMessageContaining("3 results for a batch of 2");
  }
}
