package dev.nacre.node.cluster.forward;

import dev.nacre.naming.model.Beat;
import dev.nacre.naming.model.BeatResult;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.InstancePatch;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.writes.EphemeralWrites;
import dev.nacre.node.cluster.peer.PeerChannels;
import dev.nacre.proto.peer.OwnerWrite;
import dev.nacre.proto.peer.OwnerWriteResult;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.Futures;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.ListenableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ephemeral writes and beats sent to the member responsible for their service, as typed calls on
 * the peer port. When that member cannot be reached the write is applied here instead: ephemeral
 * writes stay available, and they are idempotent, so a copy that did arrive does no harm.
 */
public final class OwnerWrites implements EphemeralWrites {
  private static final Logger log = LoggerFactory.getLogger(OwnerWrites.class);
  private final String self;
  private final PeerChannels channels;
  private final Function<ServiceKey, String> responsible;
  private final EphemeralWrites local;
  private final Duration timeout;

  /** @param responsible the member responsible for a service, as the ownership mapper says */
  public OwnerWrites(String self, PeerChannels channels, Function<ServiceKey, String> responsible, EphemeralWrites local,
      Duration timeout) {
    this.self = self;
    this.channels = channels;
    this.responsible = responsible;
    this.local = local;
    this.timeout = timeout;
  }

  @Override
  public CompletableFuture<Void> registerAsync(Instance instance) {
    return atOwner(instance.key().service(), () -> OwnerWriteCodec.register(self, instance))
        .thenCompose(answer -> answer.map(OwnerWrites::applied).orElseGet(() -> local.registerAsync(instance)));
  }

  @Override
  public CompletableFuture<Void> deregisterAsync(InstanceKey key) {
    return atOwner(key.service(), () -> OwnerWriteCodec.deregister(self, key))
        .thenCompose(answer -> answer.map(OwnerWrites::applied).orElseGet(() -> local.deregisterAsync(key)));
  }

  @Override
  public void patch(InstanceKey key, InstancePatch patch) {
    await(key.service(), () -> OwnerWriteCodec.patch(self, key, patch))
        .ifPresentOrElse(OwnerWriteCodec::outcome, () -> local.patch(key, patch));
  }

  @Override
  public CompletableFuture<BeatResult> beatAsync(Beat beat) {
    return atOwner(beat.key().service(), () -> OwnerWriteCodec.beat(self, beat))
        .thenCompose(answer -> answer.map(result -> CompletableFuture.completedFuture(OwnerWriteCodec.outcome(result)))
            .orElseGet(() -> local.beatAsync(beat)));
  }

  /** The owner's answer to a write: done, or its refusal. */
  private static CompletableFuture<Void> applied(OwnerWriteResult result) {
    OwnerWriteCodec.outcome(result); // throws the refusal
    return CompletableFuture.completedFuture(null);
  }

  /**
   * The responsible member's answer; empty when that is this member or it did not answer within
   * the timeout (the call's deadline completes it). The answer completes the future on the
   * transport thread that read it, where the writes above go on: registrations and beats only
   * touch memory, a deregistration's end of an override is a future, and a patch's caller waits.
   */
  private CompletableFuture<Optional<OwnerWriteResult>> atOwner(ServiceKey service, Supplier<OwnerWrite> write) {
    String owner = responsible.apply(service);
    if (owner.equals(self)) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    CompletableFuture<Optional<OwnerWriteResult>> answer = new CompletableFuture<>();
    ListenableFuture<OwnerWriteResult> call = channels.stub(owner).withExecutor(Runnable::run)
        .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS).write(write.get());
    call.addListener(() -> {
      try {
        answer.complete(Optional.of(Futures.getDone(call)));
      } catch (ExecutionException | CancellationException e) {
        log.info("[{}] ephemeral write for {} applied here: {}, responsible for it, did not answer ({})", self,
            service.groupedName(), owner, e.getCause() != null ? e.getCause().getMessage() : e.toString());
        answer.complete(Optional.empty());
      }
    }, Runnable::run);
    return answer;
  }

  /**
   * {@link #atOwner} for a caller that may wait: the call's deadline bounds the wait, the extra
   * half second is a backstop.
   */
  private Optional<OwnerWriteResult> await(ServiceKey service, Supplier<OwnerWrite> write) {
    long waitMs = timeout.toMillis() + 500;
    try {
      return atOwner(service, write).get(waitMs, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      log.info("[{}] ephemeral write for {} applied here: the member responsible for it did not answer in {} ms",
          self, service.groupedName(), waitMs);
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
