package dev.nacre.consensus.raft.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Collection;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.grpc.server.GrpcServicesImpl;
import org.apache.ratis.proto.RaftProtos.AppendEntriesReplyProto;
import org.apache.ratis.proto.RaftProtos.AppendEntriesRequestProto;
import org.apache.ratis.proto.RaftProtos.InstallSnapshotReplyProto;
import org.apache.ratis.proto.RaftProtos.InstallSnapshotRequestProto;
import org.apache.ratis.proto.RaftProtos.RequestVoteReplyProto;
import org.apache.ratis.proto.RaftProtos.RequestVoteRequestProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionReplyProto;
import org.apache.ratis.proto.RaftProtos.StartLeaderElectionRequestProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.rpc.RpcType;
import org.apache.ratis.server.protocol.RaftServerAsynchronousProtocol;

/**
 * Ratis' gRPC services, except that a vote request first ends its channel's reconnect backoff.
 *
 * <p>Why: in a cluster start the members' Raft ports open a second or so apart. A member whose
 * first election comes before a peer listens gets "connection refused", and gRPC then holds that
 * channel in its reconnect backoff (about a second) and fails every call on it at once meanwhile.
 * The member's next election, a few hundred milliseconds later, failed the same way although the
 * peer was listening by then, and the cluster waited for another member's timeout. Votes are rare
 * (one request per peer per election round), so trying the connection again for each costs nothing.
 * Everything else goes to Ratis' own services unchanged.
 */
final class ReconnectingVoteServices implements GrpcServices {
  private final GrpcServicesImpl services;

  ReconnectingVoteServices(GrpcServicesImpl services) {
    this.services = services;
  }

  /** The wrapped services, for Ratis' gRPC appender, which needs their concrete type. */
  GrpcServicesImpl services() {
    return services;
  }

  @Override
  public RequestVoteReplyProto requestVote(RequestVoteRequestProto request) throws IOException {
    RaftPeerId target = RaftPeerId.valueOf(request.getServerRequest().getReplyId());
    services.getProxies().getProxy(target).resetConnectBackoff();
    return services.requestVote(request);
  }

  @Override
  public AppendEntriesReplyProto appendEntries(AppendEntriesRequestProto request) throws IOException {
    return services.appendEntries(request);
  }

  @Override
  public InstallSnapshotReplyProto installSnapshot(InstallSnapshotRequestProto request) throws IOException {
    return services.installSnapshot(request);
  }

  @Override
  public StartLeaderElectionReplyProto startLeaderElection(StartLeaderElectionRequestProto request)
      throws IOException {
    return services.startLeaderElection(request);
  }

  @Override
  public RaftServerAsynchronousProtocol async() {
    return services.async();
  }

  @Override
  public void handleException(RaftPeerId serverId, Exception e, boolean reconnect) {
    services.handleException(serverId, e, reconnect);
  }

  @Override
  public void notifyNotLeader(RaftGroupId groupId) {
    services.notifyNotLeader(groupId);
  }

  @Override
  public void addRaftPeers(Collection<RaftPeer> peers) {
    services.addRaftPeers(peers);
  }

  @Override
  public RpcType getRpcType() {
    return services.getRpcType();
  }

  @Override
  public void start() throws IOException {
    services.start();
  }

  @Override
  public InetSocketAddress getInetSocketAddress() {
    return services.getInetSocketAddress();
  }

  @Override
  public InetSocketAddress getClientServerAddress() {
    return services.getClientServerAddress();
  }

  @Override
  public InetSocketAddress getAdminServerAddress() {
    return services.getAdminServerAddress();
  }

  @Override
  public void close() throws IOException {
    services.close();
  }
}
