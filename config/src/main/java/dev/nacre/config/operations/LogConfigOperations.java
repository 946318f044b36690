package dev.nacre.config.operations;

import dev.nacre.config.ConfigSettings;
import dev.nacre.config.api.ConfigException.Kind;
import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.ConfigRead;
import dev.nacre.config.api.ConfigWriteObserver.Operation;
import dev.nacre.config.api.ConfigWriteObserver;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import dev.nacre.config.api.Revision;
import dev.nacre.config.state.ConfigDomain;
import dev.nacre.config.state.Records;
import dev.nacre.config.validate.ConfigValidator;
import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.ReplicatedLog;
import dev.nacre.proto.config.ConfigItemRecord;
import dev.nacre.proto.config.ConfigOperation;
import dev.nacre.proto.config.PublishConfig;
import dev.nacre.proto.config.PurgeHistory;
import dev.nacre.proto.config.PurgeResult;
import dev.nacre.proto.config.RemoveConfig;
import dev.nacre.proto.config.RemoveResult;
import dev.nacre.storage.StorageException;
import java.time.Clock;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;

/**
 * {@link ConfigOperations} on the config domain's memory and history, with writes through the
 * replicated log. Input is validated before anything is submitted, so a refused write leaves no
 * trace. Thread-safe.
 */
public final class LogConfigOperations implements ConfigOperations {
  private final ReplicatedLog log;
  private final ConfigDomain domain;
  private final Clock clock;
  private final ConfigValidator validator;
  private final PublishLimiter limiter;
  private volatile ConfigWriteObserver observer = ConfigWriteObserver.NONE;

  public LogConfigOperations(ConfigSettings settings, Clock clock, ReplicatedLog log, ConfigDomain domain) {
    this.log = log;
    this.domain = domain;
    this.clock = clock;
    this.validator = new ConfigValidator(settings.maxContentBytes());
    this.limiter = new PublishLimiter(settings.publishesPerSecondPerIp(), clock);
  }

  @Override
  public Optional<ConfigRead> read(ConfigKey key, String clientIp, String tag) {
    Optional<ConfigItem> beta = domain.beta(key).filter(b -> isAmong(clientIp, b.betaIps()));
    if (beta.isPresent()) {
      return Optional.of(new ConfigRead(beta.get(), true, ""));
    }
    if (tag != null && !tag.isEmpty()) {
      return domain.tagged(key, tag).map(i -> new ConfigRead(i, false, tag));
    }
    return domain.formal(key).map(i -> new ConfigRead(i, false, ""));
  }

  private static boolean isAmong(String ip, String betaIps) {
    return ip != null && !ip.isEmpty() && Arrays.stream(betaIps.split(",")).map(String::trim).anyMatch(ip::equals);
  }

  @Override
  public Optional<ConfigItem> formal(ConfigKey key) {
    return domain.formal(key);
  }

  @Override
  public Optional<ConfigItem> beta(ConfigKey key) {
    return domain.beta(key);
  }

  @Override
  public Optional<ConfigItem> tagged(ConfigKey key, String tag) {
    return domain.tagged(key, tag);
  }

  @Override
  public String md5For(ConfigKey key, String clientIp, String tag) {
    return read(key, clientIp, tag).map(r -> r.item().md5()).orElse("");
  }

  @Override
  public CompletableFuture<ConfigItem> publish(PublishRequest r) {
    return observed(Operation.PUBLISH, System.nanoTime(), submitPublish(r));
  }

  private CompletableFuture<ConfigItem> submitPublish(PublishRequest r) {
    PublishConfig.Builder op;
    try {
      String type = validator.checkPublish(r);
      limiter.acquire(r.sourceIp() == null ? "" : r.sourceIp());
      op = PublishConfig.newBuilder().setKey(Records.record(r.key())).setContent(r.content()).setType(type)
          .setAppName(nz(r.appName())).setDesc(nz(r.desc())).setTags(nz(r.tags()))
          .setEncryptedDataKey(nz(r.encryptedDataKey())).setUser(nz(r.user())).setSourceIp(nz(r.sourceIp()))
          .setBetaIps(r.betaIps().map(LogConfigOperations::normalizeIps).orElse("")).setTag(r.tag().orElse(""))
          .setTimeMillis(clock.millis());
      r.casMd5().ifPresent(op::setCasMd5);
    } catch (ConfigException e) {
      return CompletableFuture.failedFuture(e);
    }
    String what = "publish of " + r.key();
    return submit(ConfigOperation.newBuilder().setPublish(op).build(), what)
        .thenApply(bytes -> Records.item(parse(() -> ConfigItemRecord.parseFrom(bytes))));
  }

  @Override
  public CompletableFuture<Boolean> remove(RemoveRequest r) {
    return observed(Operation.REMOVE, System.nanoTime(), submitRemove(r));
  }

  private CompletableFuture<Boolean> submitRemove(RemoveRequest r) {
    try {
      validator.checkRemove(r);
    } catch (ConfigException e) {
      return CompletableFuture.failedFuture(e);
    }
    RemoveConfig op = RemoveConfig.newBuilder().setKey(Records.record(r.key())).setBeta(r.beta())
        .setTag(r.tag().orElse("")).setUser(nz(r.user())).setSourceIp(nz(r.sourceIp()))
        .setTimeMillis(clock.millis()).build();
    return submit(ConfigOperation.newBuilder().setRemove(op).build(), "delete of " + r.key())
        .thenApply(bytes -> parse(() -> RemoveResult.parseFrom(bytes)).getRemoved());
  }

  /** Tells {@code next} of every publish and delete from now on. */
  public void observe(ConfigWriteObserver next) {
    observer = next;
  }

  private <T> CompletableFuture<T> observed(Operation operation, long start, CompletableFuture<T> write) {
    return write.whenComplete((value, failure) -> observer.written(operation,
        failure == null ? "ok" : translate(failure, "").kind().name().toLowerCase(Locale.ROOT),
        System.nanoTime() - start));
  }

  /** Drops revisions modified before {@code beforeMillis}, at most {@code limit}; completes with how many. */
  public CompletableFuture<Integer> purgeHistory(long beforeMillis, int limit) {
    PurgeHistory op = PurgeHistory.newBuilder().setBeforeMillis(beforeMillis).setLimit(limit).build();
    return submit(ConfigOperation.newBuilder().setPurgeHistory(op).build(), "history purge")
        .thenApply(bytes -> parse(() -> PurgeResult.parseFrom(bytes)).getPurged());
  }

  @Override
  public CompletableFuture<Void> readBarrier() {
    return log.readBarrier().handle((v, e) -> {
      if (e != null) {
        throw translate(e, "read barrier");
      }
      return null;
    });
  }

  @Override
  public Page<ConfigItem> search(String namespace, String dataId, String group, String appName, String tags,
      boolean blur, int pageNo, int pageSize) {
    ConfigValidator.checkPage(pageNo, pageSize);
    return Search.page(domain.formals(), namespace, dataId, group, appName, tags, blur, pageNo, pageSize);
  }

  @Override
  public Page<Revision> history(ConfigKey key, int pageNo, int pageSize) {
    ConfigValidator.checkPage(pageNo, pageSize);
    return fromStore(() -> domain.history().page(key, pageNo, pageSize));
  }

  @Override
  public Optional<Revision> revision(ConfigKey key, long id) {
    return fromStore(() -> domain.history().revision(key, id));
  }

  @Override
  public Optional<Revision> previous(ConfigKey key, long id) {
    return fromStore(() -> domain.history().previous(key, id));
  }

  @Override
  public int count() {
    return domain.count();
  }

  private CompletableFuture<byte[]> submit(ConfigOperation op, String what) {
    return log.submit(op.toByteArray()).handle((bytes, e) -> {
      if (e != null) {
        throw translate(e, what);
      }
      return bytes;
    });
  }

  /**
   * Refusals by the state machine: {@link ConfigDomain#CONFLICT} first is a compare-and-set
   * conflict, any other is invalid input; no quorum is unavailable.
   */
  static ConfigException translate(Throwable failure, String what) {
    Throwable e = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    if (e instanceof ConfigException c) {
      return c;
    }
    if (e instanceof OperationRejectedException) {
      String message = e.getMessage() == null ? "" : e.getMessage();
      return message.startsWith(ConfigDomain.CONFLICT)
          ? new ConfigException(Kind.CONFLICT, what + " refused: " + message, e)
          : new ConfigException(Kind.INVALID, what + " refused: " + message, e);
    }
    if (e instanceof ConsensusUnavailableException) {
      return new ConfigException(Kind.UNAVAILABLE, what + " not known to be committed: " + e.getMessage()
          + "; retry once a majority of the cluster's members is up and reachable", e);
    }
    return new ConfigException(Kind.UNAVAILABLE, what + " failed: " + e + "; see this member's log", e);
  }

  private static <T> T fromStore(Supplier<T> read) {
    try {
      return read.get();
    } catch (StorageException | IllegalStateException e) {
      throw new ConfigException(Kind.UNAVAILABLE, "history unreadable on this member now: " + e.getMessage()
          + "; retry, or ask another member", e);
    }
  }

  private interface ProtoParse<T> {
    T parse() throws InvalidProtocolBufferException;
  }

  private static <T> T parse(ProtoParse<T> parse) {
    try {
      return parse.parse();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the config domain answered with an unreadable result", e);
    }
  }

  private static String normalizeIps(String ips) {
    return String.join(",", Arrays.stream(ips.split(",")).map(String::trim).toList());
  }

  private static String nz(String s) {
    return s == null ? "" : s;
  }
}
