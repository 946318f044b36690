package dev.nacre.consensus.raft.internal;

import dev.nacre.consensus.raft.RaftConfig;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto.TypeCase;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.thirdparty.io.grpc.ServerServiceDefinition;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/** Translates a {@link RaftConfig} into Ratis' typed keys: the only place that knows them. */
public final class RatisProperties {
  /** Pause between client retries while there is no leader: short, so a new leader is found fast. */
  private static final TimeDuration RETRY_SLEEP = TimeDuration.valueOf(50, TimeUnit.MILLISECONDS);

  private RatisProperties() {}

  public static RaftProperties server(RaftConfig config) {
    RaftProperties p = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(p, List.of(config.storageDir().toFile()));
    RaftConfigKeys.Rpc.setType(p, new CommitAnnouncingRpc());
    // Listen only on the address members dial (Ratis would otherwise bind every interface).
    GrpcConfigKeys.Server.setHost(p, config.selfHost());
    GrpcConfigKeys.Server.setPort(p, config.selfPort());
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, millis(config.electionTimeoutMin().toMillis()));
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, millis(config.electionTimeoutMax().toMillis()));
    RaftServerConfigKeys.Rpc.setRequestTimeout(p, millis(config.requestTimeout().toMillis()));
    // Ratis keeps a leader that stepped down for lack of a majority's answers from standing again
    // for 10 s. When it alone holds the newest log among the members that can still form a
    // majority, nobody else can win meanwhile: the group stayed leaderless for 10 s in the fault
    // suite (a one-way cut from the leader, then the third member lost). Pre-vote already keeps a
    // still-cut ex-leader from disturbing the others, so it waits one election timeout, no more.
    RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(p, millis(config.electionTimeoutMin().toMillis()));
    RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
    RaftServerConfigKeys.Read.setTimeout(p, millis(config.requestTimeout().toMillis()));

    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
    RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, config.snapshotThreshold());
    RaftServerConfigKeys.Snapshot.setCreationGap(p, Math.min(config.snapshotThreshold(), 1024));
    RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
    // A member that is down for long must not make the leader keep its whole log: it gets a snapshot.
    RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
    RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(config.snapshotThreshold(), 1024));
    RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(config.logSegmentSizeBytes()));
    RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, true);
    // A snapshot goes out a chunk per file at least. Ratis lets 8 chunks go unanswered; if the
    // member is down, its sender then blocks on the ninth for 8 request timeouts (24 s) before it
    // tries again, so a member restarted meanwhile waited that long to catch up. One unanswered
    // chunk bounds the wait by one or two request timeouts; a chunk per round trip is plenty for
    // a registry's snapshot.
    GrpcConfigKeys.Server.setInstallSnapshotRequestElementLimit(p, 1);
    GrpcConfigKeys.Server.setInstallSnapshotRequestTimeout(p, millis(config.requestTimeout().toMillis()));
    // By default the leader appends a metadata entry (its commit index) after every commit: a
    // second entry, flushed and replicated, per write round, which halved CP write throughput.
    // Nothing here needs it: the state machine keeps its own applied index in RocksDB, loads it
    // at start, and a member learns the commit index from the leader as Raft intends.
    RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
    return p;
  }

  /**
   * Ratis parameters (objects, not keys) for both the server and the client of this member: the
   * Raft port also serves {@code forwards} (batches other members hand to the leader); its
   * services run where {@code handlerThreads} says; and with a
   * cluster secret, mutual TLS from {@code tls} on every channel (server, client and admin share
   * the one Raft port); without ({@code null}), none.
   */
  public static Parameters parameters(GrpcTlsConfig tls, RaftConfig.HandlerThreads handlerThreads,
      ServerServiceDefinition forwards) {
    Parameters p = new Parameters();
    GrpcConfigKeys.Server.setServicesCustomizer(p, (builder, types) -> {
      if (types.contains(GrpcServices.Type.SERVER)) {
        builder.addService(forwards);
      }
      if (handlerThreads == RaftConfig.HandlerThreads.POOL) {
        return builder;
      }
      // Ratis' handlers hand each message from the transport thread to a pooled thread and answer
      // through futures; none of them waits on the network. Running them on the transport thread
      // saves a thread wake-up per message: 12-16% of the CPU of a replicated write (3 in-process
      // members, one writer; docs/PERFORMANCE.md). What they may wait on, a vote's metadata flush
      // or a full log queue, is the member's own disk, which every later message waits on anyway.
      // Except votes, which may wait for the member's own election round: see VoteCallsOffTransport.
      return builder.directExecutor().callExecutor(new VoteCallsOffTransport());
    });
    if (tls != null) {
      // Sets the default that Ratis' server, client and admin TLS settings all fall back to.
      GrpcConfigKeys.TLS.setConf(p, tls);
    }
    return p;
  }

  public static RaftProperties client(RaftConfig config) {
    RaftProperties p = new RaftProperties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(p, millis(config.requestTimeout().toMillis()));
    // The dummy "warm-up" watch request fails while no leader is ready and is logged at ERROR.
    RaftClientConfigKeys.Async.Experimental.setSendDummyRequest(p, false);
    return p;
  }

  /** Retries through elections, but gives up once the request timeout has passed. */
  public static RetryPolicy clientRetry(RaftConfig config) {
    TimeDuration timeout = millis(config.requestTimeout().toMillis());
    RetryPolicy retry = RetryPolicies.retryForeverWithSleep(RETRY_SLEEP);
    return RequestTypeDependentRetryPolicy.newBuilder()
        .setRetryPolicy(TypeCase.WRITE, retry)
        .setTimeout(TypeCase.WRITE, timeout)
        .setRetryPolicy(TypeCase.READ, retry)
        .setTimeout(TypeCase.READ, timeout)
        .build();
  }

  private static TimeDuration millis(long ms) {
    return TimeDuration.valueOf(ms, TimeUnit.MILLISECONDS);
  }
}
