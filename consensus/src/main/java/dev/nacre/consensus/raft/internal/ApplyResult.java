package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.OperationRejectedException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The reply of one applied entry as it travels from the leader to the submitter: a tag byte, then
 * the result or the rejection message. A rejection is a normal reply (not a failed apply future)
 * because Ratis only logs failed applies, and rejections are deterministic on every member.
 */
public final class ApplyResult {
  private static final byte OK = 0;
  private static final byte REJECTED = 1;

  private ApplyResult() {}

  public static byte[] ok(byte[] result) {
    byte[] out = new byte[result.length + 1];
    out[0] = OK;
    System.arraycopy(result, 0, out, 1, result.length);
    return out;
  }

  public static byte[] rejected(String message) {
    byte[] text = String.valueOf(message).getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[text.length + 1];
    out[0] = REJECTED;
    System.arraycopy(text, 0, out, 1, text.length);
    return out;
  }

  /** Returns the result, or throws {@link OperationRejectedException} for a rejection. */
  public static byte[] decode(byte[] encoded) {
    if (encoded.length == 0) {
      throw new IllegalStateException("empty reply from the Raft group; expected a tagged apply result");
    }
    byte[] body = Arrays.copyOfRange(encoded, 1, encoded.length);
    if (encoded[0] == REJECTED) {
      throw new OperationRejectedException(new String(body, StandardCharsets.UTF_8));
    }
    return body;
  }
}
