package dev.nacre.node.configs.grpc;

import dev.nacre.config.api.ConfigException;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.Replies;
import dev.nacre.node.client.Replies.Reply;

/** The configuration module's refusals as the Nacos 2.x client protocol answers them. */
final class ConfigReplies {
  /** ConfigQueryResponse.CONFIG_NOT_FOUND: the client's getConfig answers null. */
  static final int CONFIG_NOT_FOUND = 300;
  /** ConfigQueryResponse.CONFIG_QUERY_CONFLICT, also a failed compare-and-set publish. */
  static final int CONFLICT = 400;

  private ConfigReplies() {}

  /**
   * A refused configuration operation as the typed response {@code type}: resultCode 500 and
   * Nacos' error code for its kind. The client turns a failed publish or remove into
   * {@code false} and logs the code and message; a failed query into a NacosException.
   */
  static Reply refused(PayloadCodec codec, String type, ConfigException e) {
    return switch (e.kind()) {
      case INVALID -> Replies.fail(codec, type, Replies.PARAM_INVALID, "Param check invalid:" + e.getMessage());
      case NOT_FOUND -> Replies.fail(codec, type, CONFIG_NOT_FOUND, e.getMessage());
      case CONFLICT -> Replies.fail(codec, type, CONFLICT, e.getMessage());
      case LIMITED, UNAVAILABLE -> Replies.fail(codec, type, Replies.UNAVAILABLE, e.getMessage());
    };
  }
}
