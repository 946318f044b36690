package dev.nacre.config.api;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the client ports (gRPC, HTTP v1 and v2, the console, the CLI) call. Reads come from this
 * member's applied state; writes go through the Raft log and complete once committed and applied
 * here. Futures fail with {@link ConfigException}.
 */
public interface ConfigOperations {

  /**
   * The content that applies to a client: the beta content when {@code clientIp} is among its
   * beta addresses; else the tag's content when {@code tag} is not empty (empty when that tag has
   * none); else the formal content.
   */
  Optional<ConfigRead> read(ConfigKey key, String clientIp, String tag);

  /** The formal content, the beta one, or one tag's ({@code tag} not empty). */
  Optional<ConfigItem> formal(ConfigKey key);

  Optional<ConfigItem> beta(ConfigKey key);

  Optional<ConfigItem> tagged(ConfigKey key, String tag);

  /** The md5 of what {@link #read} would give that client, "" when nothing. */
  String md5For(ConfigKey key, String clientIp, String tag);

  /** Validates, then writes through the log; completes with what was stored. */
  CompletableFuture<ConfigItem> publish(PublishRequest request);

  /** Completes with whether something was removed. */
  CompletableFuture<Boolean> remove(RemoveRequest request);

  /** Completes once this member has applied everything committed before the call (read index). */
  CompletableFuture<Void> readBarrier();

  /**
   * Formal configurations of a namespace. {@code blur}: dataId, group, appName and tags are
   * patterns where {@code *} is any text; else each non-empty one must match exactly.
   */
  Page<ConfigItem> search(String namespace, String dataId, String group, String appName, String tags,
      boolean blur, int pageNo, int pageSize);

  /** A configuration's revisions, newest first. */
  Page<Revision> history(ConfigKey key, int pageNo, int pageSize);

  /** One revision of a configuration by id. */
  Optional<Revision> revision(ConfigKey key, long id);

  /** The revision of the same configuration just before {@code id}, for a rollback. */
  Optional<Revision> previous(ConfigKey key, long id);

  /** Formal configurations on this member. */
  int count();
}
