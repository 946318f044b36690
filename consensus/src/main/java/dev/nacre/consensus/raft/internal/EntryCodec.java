package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.Outcome;
import dev.nacre.proto.consensus.OperationBatch;
import dev.nacre.proto.consensus.OperationBatchResult;
import dev.nacre.proto.consensus.RequestId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * The bytes of a Raft entry, of a batch forwarded to the leader, and of their replies. An entry is
 * the tag byte {@code 0} and an {@link OperationBatch}; entries written before batching are one
 * bare operation, which protobuf never starts with a zero byte, so they still decode (as a batch
 * of one). A forwarded batch is the tag byte {@code 1} and an {@link OperationBatch}.
 */
public final class EntryCodec {
  private static final byte BATCH_TAG = 0;
  private static final byte FORWARD_TAG = 1;

  private EntryCodec() {}

  public static byte[] encodeBatch(List<byte[]> operations) {
    return encodeEntry(operations.stream().map(TrackedOperation::own).toList());
  }

  public static byte[] encodeEntry(List<TrackedOperation> operations) {
    return tagged(BATCH_TAG, operations);
  }

  public static byte[] encodeForward(List<TrackedOperation> operations) {
    return tagged(FORWARD_TAG, operations);
  }

  /** The operations of a forwarded batch, or empty when {@code message} is not one. */
  public static Optional<List<TrackedOperation>> decodeForward(byte[] message) {
    return decodeForward(message, 0);
  }

  /**
   * {@link #decodeForward(byte[])} of the batch that starts at {@code offset} (after a stream's
   * message id), read in place rather than copied out first.
   */
  public static Optional<List<TrackedOperation>> decodeForward(byte[] message, int offset) {
    return batchAfterTag(FORWARD_TAG, UnsafeByteOperations.unsafeWrap(message, offset, message.length - offset));
  }

  /**
   * The operations of the {@link OperationBatch} that follows {@code tag} in {@code data}, parsed
   * from a view of it (no copy); empty when {@code data} does not start with the tag or the batch
   * is unreadable.
   */
  private static Optional<List<TrackedOperation>> batchAfterTag(byte tag, ByteString data) {
    if (data.isEmpty() || data.byteAt(0) != tag) {
      return Optional.empty();
    }
    try {
      return Optional.of(operations(OperationBatch.parseFrom(data.substring(1))));
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }

  private static byte[] tagged(byte tag, List<TrackedOperation> operations) {
    OperationBatch.Builder batch = OperationBatch.newBuilder();
    boolean anyForwarded = operations.stream().anyMatch(TrackedOperation::forwarded);
    for (TrackedOperation op : operations) {
      batch.addOperations(UnsafeByteOperations.unsafeWrap(op.operation()));
      if (anyForwarded) {
        batch.addRequestIds(RequestId.newBuilder().setOrigin(op.origin()).setSequence(op.sequence()));
      }
    }
    byte[] body = batch.build().toByteArray();
    byte[] entry = new byte[body.length + 1];
    entry[0] = tag;
    System.arraycopy(body, 0, entry, 1, body.length);
    return entry;
  }

  private static List<TrackedOperation> operations(OperationBatch batch) {
    boolean identified = batch.getRequestIdsCount() == batch.getOperationsCount();
    List<TrackedOperation> ops = new ArrayList<>(batch.getOperationsCount());
    for (int i = 0; i < batch.getOperationsCount(); i++) {
      byte[] op = batch.getOperations(i).toByteArray();
      ops.add(identified
          ? new TrackedOperation(op, batch.getRequestIds(i).getOrigin(), batch.getRequestIds(i).getSequence())
          : TrackedOperation.own(op));
    }
    return ops;
  }

  /** The operations of an entry; a malformed batch is a batch of one undecodable operation. */
  public static List<byte[]> decodeBatch(byte[] entry) {
    return decodeEntry(entry).stream().map(TrackedOperation::operation).toList();
  }

  /** {@link #decodeBatch} with the identity of forwarded operations. */
  public static List<TrackedOperation> decodeEntry(byte[] entry) {
    return decodeEntry(UnsafeByteOperations.unsafeWrap(entry));
  }

  /**
   * {@link #decodeEntry(byte[])} of a log entry's data as Ratis holds it, read in place: every
   * member decodes every entry, and a copy to an array and a second one past the tag cost each.
   */
  public static List<TrackedOperation> decodeEntry(ByteString entry) {
    // An entry from before batching, or an unreadable batch: one operation, which the state
    // machine refuses like any operation it cannot read.
    return batchAfterTag(BATCH_TAG, entry).orElseGet(() -> List.of(TrackedOperation.own(entry.toByteArray())));
  }

  /** An outcome as the tagged {@link ApplyResult} that travels back to the submitter. */
  public static byte[] tagged(Outcome outcome) {
    return outcome.isRejected() ? ApplyResult.rejected(outcome.rejection()) : ApplyResult.ok(outcome.result());
  }

  public static byte[] encodeOutcomes(List<Outcome> outcomes) {
    OperationBatchResult.Builder reply = OperationBatchResult.newBuilder();
    for (Outcome o : outcomes) {
      reply.addResults(UnsafeByteOperations.unsafeWrap(tagged(o)));
    }
    return reply.build().toByteArray();
  }

  /** The leader's answer to a forwarded batch: tagged {@link ApplyResult}s and an applied index. */
  public static byte[] encodeForwardReply(List<byte[]> taggedResults, long appliedIndex) {
    OperationBatchResult.Builder reply = OperationBatchResult.newBuilder().setAppliedIndex(appliedIndex);
    taggedResults.forEach(r -> reply.addResults(UnsafeByteOperations.unsafeWrap(r)));
    return reply.build().toByteArray();
  }

  /** One tagged {@link ApplyResult} per operation of the batch, in order. */
  public static List<byte[]> decodeOutcomes(byte[] reply, int expected) {
    return decodeReply(reply, expected).results();
  }

  /** A reply's tagged results (one per operation, in order) and, for a forwarded batch, its applied index. */
  public record Reply(List<byte[]> results, long appliedIndex) {}

  public static Reply decodeReply(byte[] reply, int expected) {
    try {
      OperationBatchResult decoded = OperationBatchResult.parseFrom(reply);
      if (decoded.getResultsCount() != expected) {
        throw new IllegalStateException("the Raft group answered " + decoded.getResultsCount()
            + " results for a batch of " + expected + " operations; members run different versions?");
      }
      List<byte[]> results = new ArrayList<>(expected);
      decoded.getResultsList().forEach(r -> results.add(r.toByteArray()));
      return new Reply(results, decoded.getAppliedIndex());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("unreadable reply from the Raft group: " + e.getMessage(), e);
    }
  }
}
