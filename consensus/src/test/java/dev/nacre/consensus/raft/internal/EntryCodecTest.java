package dev.nacre.consensus.raft.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
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

  /** Ratis may hand the state machine an entry's data as a view into a larger buffer. */
  @Test
  void anEntryIsReadInPlaceFromAViewIntoALargerBuffer() {
    byte[] a = {10, 1, 65};
    byte[] entry = EntryCodec.encodeEntry(List.of(new TrackedOperation(a, "n1/run", 3)));
    byte[] larger = new byte[entry.length + 7];
    System.arraycopy(entry, 0, larger, 4, entry.length);
    ByteString view = ByteString.copyFrom(larger).substring(4, 4 + entry.length);
    List<TrackedOperation> decoded = EntryCodec.decodeEntry(view);
    assertThat(decoded).extracting(TrackedOperation::operation).containsExactly(a);
    assertThat(decoded.get(0).key()).isEqualTo(new TrackedOperation.Key("n1/run", 3));

    byte[] malformed = {0, (byte) 0xff};
    assertThat(EntryCodec.decodeEntry(ByteString.copyFrom(larger, 0, 1).concat(ByteString.copyFrom(malformed))))
        .as("an unreadable batch is one operation that the state machine refuses")
        .extracting(TrackedOperation::operation).containsExactly(new byte[] {0, 0, (byte) 0xff});
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

  @Test
  void aForwardedBatchKeepsEachOperationsIdentityIntoTheEntryAndTheLeadersOwnHaveNone() {
    byte[] a = {10, 1, 65};
    byte[] b = {10, 1, 66};
    List<TrackedOperation> forward = List.of(new TrackedOperation(a, "n1/run", 7), new TrackedOperation(b, "n1/run", 8));
    List<TrackedOperation> decoded = EntryCodec.decodeForward(EntryCodec.encodeForward(forward)).orElseThrow();
    assertThat(decoded).extracting(TrackedOperation::key)
        .containsExactly(new TrackedOperation.Key("n1/run", 7), new TrackedOperation.Key("n1/run", 8));
    assertThat(decoded).extracting(TrackedOperation::operation).containsExactly(a, b);

    List<TrackedOperation> entry = EntryCodec.decodeEntry(EntryCodec.encodeEntry(
        List.of(TrackedOperation.own(b), decoded.get(0))));
    assertThat(entry).extracting(TrackedOperation::forwarded).containsExactly(false, true);
    assertThat(entry.get(1).key()).isEqualTo(new TrackedOperation.Key("n1/run", 7));
    assertThat(EntryCodec.decodeForward(EntryCodec.encodeBatch(List.of(a)))).as("an entry is not a forward").isEmpty();
    assertThat(EntryCodec.decodeForward(new byte[0])).as("a read barrier is not a forward").isEmpty();
  }

  @Test
  void aForwardReplyCarriesTheLeadersAppliedIndex() {
    byte[] reply = EntryCodec.encodeForwardReply(List.of(ApplyResult.ok(new byte[] {1}), ApplyResult.rejected("no")), 42);
    EntryCodec.Reply decoded = EntryCodec.decodeReply(reply, 2);
    assertThat(decoded.appliedIndex()).isEqualTo(42);
    assertThat(ApplyResult.decode(decoded.results().get(0))).containsExactly(1);
    assertThatThrownBy(() -> ApplyResult.decode(decoded.results().get(1))).hasMessage("no");
  }
}
