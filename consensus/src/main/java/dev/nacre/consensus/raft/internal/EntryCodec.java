package dev.nacre.consensus.raft.internal;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.nacre.consensus.raft.Outcome;
import dev.nacre.proto.consensus.OperationBatch;
import dev.nacre.proto.consensus.OperationBatchResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a Raft entry and of its reply. An entry is the tag byte {@code 0} and an {@link
 * OperationBatch}; entries written before batching are one bare operation, which protobuf never
 * starts with a zero byte, so they still decode (as a batch of one).
 */
public final class EntryCodec {
  private static final byte BATCH_TAG = 0;

  private EntryCodec() {}

  public static byte[] encodeBatch(List<byte[]> operations) {
    OperationBatch.Builder batch = OperationBatch.newBuilder();
    for (byte[] op : operations) {
      batch.addOperations(ByteString.copyFrom(op));
    }
    byte[] body = batch.build().toByteArray();
    byte[] entry = new byte[body.length + 1];
    entry[0] = BATCH_TAG;
    System.arraycopy(body, 0, entry, 1, body.length);
    return entry;
  }

  /** The operations of an entry; a malformed batch is a batch of one undecodable operation. */
  public static List<byte[]> decodeBatch(byte[] entry) {
    if (entry.length == 0 || entry[0] != BATCH_TAG) {
      return List.of(entry);
    }
    try {
      OperationBatch batch = OperationBatch.parseFrom(ByteString.copyFrom(entry, 1, entry.length - 1));
      List<byte[]> ops = new ArrayList<>(batch.getOperationsCount());
      batch.getOperationsList().forEach(op -> ops.add(op.toByteArray()));
      return ops;
    } catch (InvalidProtocolBufferException e) {
      return List.of(entry); // the state machine refuses it like any operation it cannot read
    }
  }

  public static byte[] encodeOutcomes(List<Outcome> outcomes) {
    OperationBatchResult.Builder reply = OperationBatchResult.newBuilder();
    for (Outcome o : outcomes) {
      reply.addResults(ByteString.copyFrom(
          o.isRejected() ? ApplyResult.rejected(o.rejection()) : ApplyResult.ok(o.result())));
    }
    return reply.build().toByteArray();
  }

  /** One tagged {@link ApplyResult} per operation of the batch, in order. */
  public static List<byte[]> decodeOutcomes(byte[] reply, int expected) {
    try {
      OperationBatchResult decoded = OperationBatchResult.parseFrom(reply);
      if (decoded.getResultsCount() != expected) {
        throw new IllegalStateException("the Raft group answered " + decoded.getResultsCount()
            + " results for a batch of " + expected + " operations; members run different versions?");
      }
      List<byte[]> results = new ArrayList<>(expected);
      decoded.getResultsList().forEach(r -> results.add(r.toByteArray()));
      return results;
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("unreadable reply from the Raft group: " + e.getMessage(), e);
    }
  }
}
