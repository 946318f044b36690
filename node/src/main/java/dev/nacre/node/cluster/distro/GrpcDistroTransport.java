package dev.nacre.node.cluster.distro;

import dev.nacre.consensus.distro.DistroBatch;
import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.DistroSnapshot;
import dev.nacre.consensus.distro.DistroTransport;
import dev.nacre.consensus.distro.SnapshotRequest;
import dev.nacre.node.cluster.peer.PeerChannels;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.FutureCallback;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.Futures;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.ListenableFuture;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.MoreExecutors;
import org.apache.ratis.thirdparty.io.grpc.Status;

/**
 * Distro's messages over the peer gRPC channels, each call with its own deadline. Snapshots come
 * as a stream of parts ({@link SnapshotParts}), from a member of an older version as one message.
 */
public final class GrpcDistroTransport implements DistroTransport {
  private final PeerChannels channels;
  private final Duration deadline;
  private final Duration snapshotDeadline;

  public GrpcDistroTransport(PeerChannels channels, Duration deadline, Duration snapshotDeadline) {
    this.channels = channels;
    this.deadline = deadline;
    this.snapshotDeadline = snapshotDeadline;
  }

  @Override
  public CompletableFuture<Void> sendBatch(String peerId, DistroBatch batch) {
    return call(() -> channels.stub(peerId).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
        .sync(DistroMessages.toProto(batch)), ack -> null);
  }

  @Override
  public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest request) {
    return requestSnapshot(peerId, request, null);
  }

  @Override
  public CompletableFuture<DistroSnapshot> requestSnapshot(String peerId, SnapshotRequest request,
      Consumer<List<DistroRecord>> handOver) {
    CompletableFuture<DistroSnapshot> parts = new CompletableFuture<>();
    try {
      channels.streamingStub(peerId).withDeadlineAfter(snapshotDeadline.toMillis(), TimeUnit.MILLISECONDS)
          .snapshotParts(DistroMessages.toProto(request), SnapshotParts.collect(parts, handOver));
    } catch (RuntimeException e) {
      parts.completeExceptionally(e);
    }
    return parts.handle((snapshot, error) -> {
      if (error != null && Status.fromThrowable(error).getCode() == Status.Code.UNIMPLEMENTED) {
        return call(() -> channels.stub(peerId).withDeadlineAfter(snapshotDeadline.toMillis(), TimeUnit.MILLISECONDS)
            .snapshot(DistroMessages.toProto(request)), DistroMessages::fromProto);
      }
      return error == null ? CompletableFuture.completedFuture(snapshot) : CompletableFuture.<DistroSnapshot>failedFuture(error);
    }).thenCompose(f -> f);
  }

  private interface Call<R> {
    ListenableFuture<R> start();
  }

  private static <R, T> CompletableFuture<T> call(Call<R> call, Function<R, T> convert) {
    CompletableFuture<T> out = new CompletableFuture<>();
    try {
      Futures.addCallback(call.start(), new FutureCallback<R>() {
        @Override
        public void onSuccess(R result) {
          try {
            out.complete(convert.apply(result));
          } catch (RuntimeException e) {
            out.completeExceptionally(e);
          }
        }

        @Override
        public void onFailure(Throwable t) {
          out.completeExceptionally(t);
        }
      }, MoreExecutors.directExecutor());
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
    }
    return out;
  }
}
