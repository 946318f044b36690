package dev.nacre.node.naming.grpc;

import dev.nacre.naming.api.NamingException;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.Replies;
import dev.nacre.node.client.Replies.Reply;

/** The naming registry's refusals as the Nacos 2.x client protocol answers them. */
final class NamingReplies {
  private NamingReplies() {}

  /** A failed naming operation as the typed response {@code type} with Nacos' code for it. */
  static Reply refused(PayloadCodec codec, String type, NamingException e) {
    return switch (e.kind()) {
      case INVALID -> Replies.fail(codec, type, Replies.PARAM_INVALID, "Param check invalid:" + e.getMessage());
      case CONFLICT -> Replies.fail(codec, type, Replies.PARAM_INVALID, e.getMessage());
      case NOT_FOUND -> Replies.fail(codec, type, Replies.NOT_FOUND, e.getMessage());
      case UNAVAILABLE -> Replies.fail(codec, type, Replies.UNAVAILABLE, e.getMessage());
    };
  }
}
