package dev.nacre.node.cluster.distro;

import dev.nacre.consensus.distro.DistroRecord;
import dev.nacre.consensus.distro.DistroSnapshot;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientCallStreamObserver;
import org.apache.ratis.thirdparty.io.grpc.stub.ClientResponseObserver;
import org.apache.ratis.thirdparty.io.grpc.stub.ServerCallStreamObserver;

/**
 * A Distro snapshot as a stream of parts, so that its size is not bounded by one gRPC message
 * (64 MiB: about 300,000 instances) and neither side holds it twice: the sender encodes a part
 * only when the stream can take it (gRPC flow control), the receiver decodes each part as it
 * comes and joins the records.
 */
public final class SnapshotParts {
  /** Encoded records per part, about: well under the message cap, large enough to stream fast. */
  public static final int PART_BYTES = 1 << 20;

  private SnapshotParts() {}

  /**
   * Sends the snapshot that {@code snapshot} completes with on {@code out}, part after part as
   * the stream is ready. Must be called inside the service method (it installs the handlers).
   */
  public static void serve(CompletableFuture<DistroSnapshot> snapshot, ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot> out,
      int partBytes) {
    Sender sender = new Sender(out, partBytes);
    out.setOnReadyHandler(sender::drain);
    out.setOnCancelHandler(sender::cancel);
    snapshot.whenComplete((s, error) -> {
      if (error != null) {
        sender.fail(Status.UNAVAILABLE.withDescription("snapshot failed here: " + error.getMessage()).withCause(error));
      } else {
        sender.start(s);
      }
    });
  }

  /**
   * Receives the parts of one snapshot; {@code result} completes with them joined, or, when
   * {@code handOver} is given, each part's records go there as the part arrives and {@code
   * result} completes with none.
   */
  public static ClientResponseObserver<dev.nacre.proto.peer.SnapshotRequest, dev.nacre.proto.peer.DistroSnapshot> collect(
      CompletableFuture<DistroSnapshot> result, Consumer<List<DistroRecord>> handOver) {
    return new ClientResponseObserver<>() {
      private final List<DistroRecord> records = new ArrayList<>();
      private DistroSnapshot first;

      @Override
      public void beforeStart(ClientCallStreamObserver<dev.nacre.proto.peer.SnapshotRequest> call) {
        // gRPC asks for the next part once onNext returns: at most one part waits here.
      }

      @Override
      public void onNext(dev.nacre.proto.peer.DistroSnapshot part) {
        DistroSnapshot decoded = DistroMessages.fromProto(part);
        if (first == null) {
          first = decoded;
        }
        if (handOver != null) {
          handOver.accept(decoded.records());
        } else {
          records.addAll(decoded.records());
        }
      }

      @Override
      public void onError(Throwable t) {
        result.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        if (first == null) {
          result.completeExceptionally(new IllegalStateException("snapshot stream ended without a part"));
        } else {
          result.complete(new DistroSnapshot(first.sender(), first.scope(), first.highWaterRevision(), records));
        }
      }
    };
  }

  /** The sending side of one stream; every method may run on a different thread. */
  private static final class Sender {
    private final ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot> out;
    private final int partBytes;
    private DistroSnapshot snapshot;
    private Iterator<DistroRecord> next;
    private boolean done;

    Sender(ServerCallStreamObserver<dev.nacre.proto.peer.DistroSnapshot> out, int partBytes) {
      this.out = out;
      this.partBytes = partBytes;
    }

    synchronized void start(DistroSnapshot s) {
      snapshot = s;
      next = s.records().iterator();
      drain();
    }

    synchronized void drain() {
      if (done || next == null) {
        return;
      }
      // Not ready: the stream's onReady handler calls again. An empty snapshot is one empty part.
      while (out.isReady()) {
        var part = dev.nacre.proto.peer.DistroSnapshot.newBuilder()
            .setSender(snapshot.sender())
            .setScope(DistroMessages.scope(snapshot.scope()))
            .setHighWaterRevision(snapshot.highWaterRevision());
        int bytes = 0;
        while (next.hasNext() && bytes < partBytes) {
          var record = DistroMessages.toProto(next.next());
          bytes += record.getSerializedSize();
          part.addRecords(record);
        }
        out.onNext(part.build());
        if (!next.hasNext()) {
          done = true;
          out.onCompleted();
          return;
        }
      }
    }

    synchronized void fail(Status status) {
      if (!done) {
        done = true;
        out.onError(status.asRuntimeException());
      }
    }

    synchronized void cancel() {
      done = true;
    }
  }
}
