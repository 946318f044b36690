package dev.nacre.node.cluster;

import dev.nacre.consensus.async.Completions;
import dev.nacre.consensus.distro.DistroReplicator;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.node.cluster.distro.DistroMessages;
import dev.nacre.node.cluster.distro.SnapshotParts;
import dev.nacre.node.cluster.forward.OwnerWriteCodec;
import dev.nacre.proto.peer.DistroAck;
import dev.nacre.proto.peer.DistroBatch;
import dev.nacre.proto.peer.DistroSnapshot;
import dev.nacre.proto.peer.OwnerWrite;
import dev.nacre.proto.peer.OwnerWriteResult;
import dev.nacre.proto.peer.PeerGrpc;
import dev.nacre.proto.peer.PingRequest;
import dev.nacre.proto.peer.PingResponse;
import dev.nacre.proto.peer.SnapshotRequest;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCallStreamObserver;
import org.apache.ratis.thirdparty.io.grpc.stub.StreamObserver;

/**
 * The peer port's calls. Bad messages from a peer get INVALID_ARGUMENT with a message; failures
 * of this member get UNAVAILABLE; nothing a peer sends can throw out of here.
 */
final class PeerService extends PeerGrpc.PeerImplBase {
  private static final int MAX_DESCRIPTION = 512;

  private final Supplier<PingResponse> status;
  private final Consumer<String> pingedBy;
  private final DistroReplicator replicator;
  private final EphemeralWrites localWrites;
  private final Executor handlers;

  /**
   * @param pingedBy told who sent each ping (the member's own address as it says), on the transport thread
   * @param handlers the peer port's pool, for owner writes that wait for a Raft commit (patches)
   */
  PeerService(Supplier<PingResponse> status, Consumer<String> pingedBy, DistroReplicator replicator,
      EphemeralWrites localWrites, Executor handlers) {
    this.status = status;
    this.pingedBy = pingedBy;
    this.replicator = replicator;
    this.localWrites = localWrites;
    this.handlers = handlers;
  }

  @Override
  public void ping(PingRequest request, StreamObserver<PingResponse> out) {
    out.onNext(status.get());
    out.onCompleted();
    pingedBy.accept(request.getFrom());
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

  /**
   * May run on a transport thread ({@link PeerServer}). Registrations and beats only touch memory,
   * and a deregistration's wait for the end of an operator's override (a Raft commit) holds no
   * thread; a patch records an override and waits for its commit, so patches go to the pool.
   */
  @Override
  public void write(OwnerWrite request, StreamObserver<OwnerWriteResult> out) {
    if (request.getWriteCase() != OwnerWrite.WriteCase.PATCH) {
      apply(request, out);
      return;
    }
    try {
      handlers.execute(() -> apply(request, out));
    } catch (RejectedExecutionException e) {
      out.onError(Status.UNAVAILABLE.withDescription("member is shutting down").asRuntimeException());
    }
  }

  private void apply(OwnerWrite request, StreamObserver<OwnerWriteResult> out) {
    Completions.start(() -> OwnerWriteCodec.applyAsync(request, localWrites)).whenComplete((answer, error) -> {
      if (error != null) {
        Throwable cause = Completions.cause(error);
        out.onError(Status.INVALID_ARGUMENT.withDescription(bounded("bad ephemeral write: " + cause)).asRuntimeException());
        return;
      }
      out.onNext(answer);
      out.onCompleted();
    });
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
