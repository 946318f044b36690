package dev.nacre.node.cluster;

import dev.nacre.node.cluster.peer.PeerAuth;
import dev.nacre.node.cluster.peer.PeerChannels;
import dev.nacre.proto.peer.PingRequest;
import dev.nacre.proto.peer.PingResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.FutureCallback;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.Futures;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.ListenableFuture;
import org.apache.ratis.thirdparty.com.google.common.util.concurrent.MoreExecutors;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Pings every other member each period and feeds the outcomes to the {@link MemberTable}. */
public final class Pinger implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Pinger.class);

  /** Shortest time between two rounds of the start-up search for a peer. */
  private static final Duration ROUND_SPACING = Duration.ofMillis(100);
  /** Deadline of each ping while a starting member looks for a peer. */
  private static final Duration STARTUP_PING_TIMEOUT = Duration.ofSeconds(2);

  private final MemberTable table;
  private final PeerChannels channels;
  private final Duration period;
  private final Duration timeout;
  private final ScheduledExecutorService scheduler;
  private final Consumer<String> answeredAgain;
  /** Members pinged because they pinged first ({@link #heardFrom}), until that ping's outcome. */
  private final Set<String> answeringCall = ConcurrentHashMap.newKeySet();
  private volatile ScheduledFuture<?> task;

  /**
   * @param answeredAgain told of each member that answers a ping after it was not UP (it failed a
   *     ping, or none answered yet), on the gRPC thread of the answer
   */
  public Pinger(MemberTable table, PeerChannels channels, Duration period, Duration timeout,
      ScheduledExecutorService scheduler, Consumer<String> answeredAgain) {
    this.table = table;
    this.channels = channels;
    this.period = period;
    this.timeout = timeout;
    this.scheduler = scheduler;
    this.answeredAgain = answeredAgain;
  }

  /** Pings every period from now on. */
  public void startPeriodic() {
    task = scheduler.scheduleWithFixedDelay(this::pingAll, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One round whose outcomes are all recorded before this returns (at most {@code bound}). */
  public void pingAllAndWait(Duration bound) {
    awaitRound(pingAll(), bound);
  }

  private void awaitRound(List<ListenableFuture<?>> calls, Duration bound) {
    try {
      Futures.whenAllComplete(calls).call(() -> null, MoreExecutors.directExecutor())
          .get(bound.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      log.debug("[{}] first ping round incomplete: {}", table.self(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Pings every other member, all at once, round after round until one answers or {@code bound}
   * has passed. Returns true when some member is UP.
   */
  public boolean awaitAnyPeer(Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    // A generous deadline: a peer that is up but slow to answer a cold channel (class loading,
    // a busy machine) must not make this member start alone, as in issue 10.
    Duration perPing = timeout.compareTo(STARTUP_PING_TIMEOUT) > 0 ? timeout : STARTUP_PING_TIMEOUT;
    while (true) {
      long roundStart = System.nanoTime();
      awaitRound(pingAll(perPing), perPing.plusMillis(100));
      if (anyPeerUp()) {
        return true;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      // Refused connections fail at once: space rounds so a peer that is starting is not flooded.
      long pause = Math.min(left, ROUND_SPACING.toNanos() - (System.nanoTime() - roundStart));
      if (pause > 0) {
        LockSupport.parkNanos(pause);
      }
      if (Thread.currentThread().isInterrupted()) {
        return anyPeerUp();
      }
    }
  }

  private boolean anyPeerUp() {
    return table.others().stream().anyMatch(m -> table.state(m) == MemberState.UP);
  }

  /** One round of pings; outcomes arrive asynchronously. */
  public List<ListenableFuture<?>> pingAll() {
    return pingAll(timeout);
  }

  private List<ListenableFuture<?>> pingAll(Duration timeout) {
    List<ListenableFuture<?>> calls = new ArrayList<>();
    for (String member : table.others()) {
      if (table.state(member) == MemberState.DOWN) {
        channels.reconnectNow(member); // a restarted member is seen within a period, not minutes
      }
      ping(member, false).ifPresent(calls::add);
    }
    return calls;
  }

  /**
   * {@code member} just pinged this one, so it runs. If it is not UP here (it restarted while this
   * member's pings failed, and gRPC may be spacing its reconnects by seconds), it is pinged now:
   * UP here, and sent this member's records, a round trip after its start instead of up to a ping
   * period plus a reconnect backoff later (issue 10: a restarted member must not lack records).
   */
  public void heardFrom(String member) {
    if (table.state(member) == MemberState.UP || !table.others().contains(member)
        || !answeringCall.add(member)) {
      return;
    }
    // On the scheduler: a call started on the thread of the ping being answered would belong to
    // that call's context, and end with it.
    try {
      scheduler.execute(() -> pingBack(member));
    } catch (RejectedExecutionException e) {
      answeringCall.remove(member); // shutting down
    }
  }

  private void pingBack(String member) {
    channels.reconnectNow(member);
    ping(member, true).ifPresentOrElse(
        call -> call.addListener(() -> answeringCall.remove(member), MoreExecutors.directExecutor()),
        () -> answeringCall.remove(member));
  }

  /**
   * @param pingBack an answer to the member's own ping ({@link #heardFrom}): it waits for the
   *     connection (a call made while the channel still counts its last attempt as failed fails at
   *     once), and only its success counts, so that a member that reaches this one over a link that
   *     fails the other way is not counted DOWN faster than the periodic pings would
   */
  private Optional<ListenableFuture<PingResponse>> ping(String member, boolean pingBack) {
    ListenableFuture<PingResponse> call;
    try {
      var stub = channels.stub(member).withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
      call = (pingBack ? stub.withWaitForReady() : stub)
          .ping(PingRequest.newBuilder().setFrom(table.self()).build());
    } catch (RuntimeException e) {
      log.debug("[{}] ping to {} not sent: {}", table.self(), member, e.toString());
      return Optional.empty();
    }
    Futures.addCallback(call, new FutureCallback<PingResponse>() {
      @Override
      public void onSuccess(PingResponse r) {
        MemberState before = table.state(member);
        table.pingAnswered(member, r);
        if (before != MemberState.UP) {
          log.info("[{}] member {} is UP (was {})", table.self(), member, before);
          answeredAgain.accept(member);
        }
      }

      @Override
      public void onFailure(Throwable t) {
        if (pingBack) {
          log.debug("[{}] ping back to {} failed: {}", table.self(), member, t.toString());
          return;
        }
        Status status = Status.fromThrowable(t);
        if (status.getCode() == Status.Code.UNAUTHENTICATED && String.valueOf(status.getDescription())
            .contains(PeerAuth.NOT_A_MEMBER)) {
          table.pingRefusedAsNonMember(member);
        }
        MemberState before = table.state(member);
        table.pingFailed(member);
        MemberState after = table.state(member);
        if (before != after) {
          log.info("[{}] member {} is {} (was {}): {}", table.self(), member, after, before, t.toString());
        }
      }
    }, MoreExecutors.directExecutor());
    return Optional.of(call);
  }

  @Override
  public void close() {
    ScheduledFuture<?> t = task;
    if (t != null) {
      t.cancel(false);
    }
  }
}
