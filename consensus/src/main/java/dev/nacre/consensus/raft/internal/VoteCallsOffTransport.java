package dev.nacre.consensus.raft.internal;

import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.ratis.proto.grpc.RaftServerProtocolServiceGrpc;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallExecutorSupplier;

/**
 * Runs Ratis' vote handlers on threads of their own while every other Raft message is handled on
 * the transport thread it arrived on ({@link RatisProperties#parameters}).
 *
 * <p>Why: a member that is a candidate when it grants another's vote waits, inside the handler,
 * until its own election round has ended, and that round ends when its vote requests are answered
 * or its election timeout passes. On a transport thread the wait also held every other channel
 * that thread serves, among them, at times, the one carrying those answers: the round then always
 * ran its full timeout. In a cluster start a member that had granted the winner's vote this way
 * named the leader 0.4 s after the others, and the start waited for it. Votes are a few messages
 * per election, so their thread hand-off costs nothing measurable.
 */
final class VoteCallsOffTransport implements ServerCallExecutorSupplier {
  private static final Set<String> VOTE_METHODS = Set.of(
      RaftServerProtocolServiceGrpc.getRequestVoteMethod().getFullMethodName(),
      RaftServerProtocolServiceGrpc.getStartLeaderElectionMethod().getFullMethodName());
  /** Shared by the members of a JVM (tests run several); idle threads end after a minute. */
  private static final ExecutorService VOTE_HANDLERS = Executors.newCachedThreadPool(
      new ThreadFactoryBuilder().setNameFormat("raft-vote-handler-%d").setDaemon(true).build());

  @Override
  public <ReqT, RespT> Executor getExecutor(ServerCall<ReqT, RespT> call, Metadata metadata) {
    // null: the server's own executor, the transport thread.
    return VOTE_METHODS.contains(call.getMethodDescriptor().getFullMethodName()) ? VOTE_HANDLERS : null;
  }
}
