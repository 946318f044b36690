package dev.nacre.node.cluster;

import com.google.protobuf.ByteString;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Router;
import dev.nacre.proto.peer.DistroAck;
import dev.nacre.proto.peer.DistroBatch;
import dev.nacre.proto.peer.DistroSnapshot;
import dev.nacre.proto.peer.ForwardRequest;
import dev.nacre.proto.peer.ForwardResponse;
import dev.nacre.proto.peer.HttpParam;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import dev.nacre.proto.peer.PingResponse;
import dev.nacre.proto.peer.SnapshotRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The peer port's calls. Bad messages from a peer get INVALID_ARGUMENT with a message; failures
 * of this member get UNAVAILABLE; nothing a peer sends can throw out of here.
 */
final class PeerService extends PeerGrpc.PeerImplBase {
  private static final int MAX_DESCRIPTION = 512;

  private final Supplier<PingResponse> status;
  private final DistroReplicator replicator;
  private final Router router;

  PeerService(Supplier<PingResponse> status, DistroReplicator replicator, Router router) {
    this.status = status;
    this.replicator = replicator;
    this.router = router;
  }

  @Override
  public void ping(PingRequest request, StreamObserver<PingResponse> out) {
    out.onNext(status.get());
    out.onCompleted();
  }

  @Override
  public void sync(DistroBatch request, StreamObserver<DistroAck> out) {
    dev.nacre.consensus.distro.DistroBatch batch;
    try {
      batch = DistroMessages.fromProto(request);
    } catch (RuntimeException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(bounded("bad Distro batch: " + e.getMessage())).asRuntimeException());
      return;
    }
    reply(replicator.receiveBatch(batch), v -> DistroAck.getDefaultInstance(), out);
  }

  @Override
  public void snapshot(SnapshotRequest request, StreamObserver<DistroSnapshot> out) {
    parsed(request, out).ifPresent(r -> reply(replicator.serveSnapshot(r), DistroMessages::toProto, out));
  }

  @Override
  public void snapshotParts(SnapshotRequest request, StreamObserver<DistroSnapshot> out) {
    parsed(request, out).ifPresent(r -> SnapshotParts.serve(replicator.serveSnapshot(r),
        (ServerCallStreamObserver<DistroSnapshot>) out, SnapshotParts.PART_BYTES));
  }

  /** The request read, or empty after answering INVALID_ARGUMENT. */
  private static Optional<dev.nacre.consensus.distro.SnapshotRequest> parsed(SnapshotRequest request,
      StreamObserver<DistroSnapshot> out) {
    try {
      return Optional.of(DistroMessages.fromProto(request));
    } catch (RuntimeException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(bounded("bad snapshot request: " + e.getMessage())).asRuntimeException());
      return Optional.empty();
    }
  }

  @Override
  public void forward(ForwardRequest request, StreamObserver<ForwardResponse> out) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    for (HttpParam p : request.getParamsList()) {
      params.computeIfAbsent(p.getName(), k -> new ArrayList<>()).add(p.getValue());
    }
    // Runs on gRPC's executor, which may block; the handler may wait for a Raft commit.
    ApiResponse response = router.serve(new ApiRequest(request.getMethod(), request.getPath(), params, request.getBody(), true));
    out.onNext(ForwardResponse.newBuilder()
        .setStatus(response.status())
        .setContentType(response.contentType())
        .setBody(ByteString.copyFrom(response.body()))
        .build());
    out.onCompleted();
  }

  private static <T, R> void reply(CompletableFuture<T> future, java.util.function.Function<T, R> convert, StreamObserver<R> out) {
    future.whenComplete((value, error) -> {
      if (error != null) {
        out.onError(Status.UNAVAILABLE.withDescription(bounded(String.valueOf(error.getMessage()))).withCause(error).asRuntimeException());
      } else {
        out.onNext(convert.apply(value));
        out.onCompleted();
      }
    });
  }

  /**
   * An error description travels in the answer's headers, which a client caps (gRPC: 8 KiB): one
   * that quotes a caller's oversized key or sender would make the answer itself fail.
   */
  static String bounded(String description) {
    return description.length() <= MAX_DESCRIPTION ? description
        : description.substring(0, MAX_DESCRIPTION) + "... (" + description.length() + " characters)";
  }
}
