package dev.nacre.node.configs.grpc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.configs.grpc.ConfigPushObserver.Outcome;
import dev.nacre.node.configs.grpc.ConnectionListener.Listened;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells listening connections that a configuration changed: a {@code ConfigChangeNotifyRequest}
 * (dataId, group, tenant as the client listened with them) on the connection's stream, sent only
 * when the md5 that client would read differs from the one it holds. The client acknowledges with
 * a {@code ConfigChangeNotifyResponse} and then queries the content. A notification without an
 * acknowledgement within the timeout is retried with a doubling delay; after the last retry the
 * key waits for the client's own periodic listen check (nacos-client re-checks every key it
 * listens to every 5 minutes, and after every reconnection). Runs on the timer's threads, never
 * on the applying thread. Thread-safe.
 */
final class ChangePushes {
  private static final Logger log = LoggerFactory.getLogger(ChangePushes.class);

  /** How notifications are retried. */
  record Retry(Duration ackTimeout, Duration firstDelay, Duration maxDelay, int maxAttempts) {
    static Retry of(Duration ackTimeout) {
      return new Retry(ackTimeout, Duration.ofSeconds(1), Duration.ofSeconds(10), 6);
    }

    long delayMillis(int failures) {
      long first = firstDelay.toMillis();
      long delay = first << Math.min(failures - 1, 20);
      return Math.min(delay, maxDelay.toMillis());
    }
  }

  private final String nodeId;
  private final ConfigOperations ops;
  private final PayloadCodec codec;
  private final ScheduledExecutorService timer;
  private final Retry retry;
  private final ConfigPushObserver observer;

  ChangePushes(String nodeId, ConfigOperations ops, PayloadCodec codec, ScheduledExecutorService timer,
      Retry retry, ConfigPushObserver observer) {
    this.nodeId = nodeId;
    this.ops = ops;
    this.codec = codec;
    this.timer = timer;
    this.retry = retry;
    this.observer = observer;
  }

  /** Hands the notification of {@code key} to {@code listener} off the calling thread. */
  void schedule(ConnectionListener listener, ConfigKey key, long sinceNanos) {
    try {
      timer.execute(() -> attempt(listener, key, sinceNanos, 0));
    } catch (RuntimeException e) {
      // The timer is shutting down with the node: nobody is left to tell.
      listener.done(key);
    }
  }

  private void attempt(ConnectionListener listener, ConfigKey key, long sinceNanos, int failures) {
    Listened listened = listener.listened(key).orElse(null);
    if (listened == null || !listener.connection().isOpen()) {
      listener.done(key);
      if (failures > 0) {
        observer.notified(Outcome.GAVE_UP, System.nanoTime() - sinceNanos);
      }
      return;
    }
    String md5;
    try {
      md5 = ops.md5For(key, listener.clientIp(), listened.tag());
    } catch (RuntimeException e) {
      log.warn("[{}] cannot tell {} of {}: reading its md5 failed", nodeId, listener, key, e);
      listener.done(key);
      return;
    }
    if (md5.equals(listened.md5())) {
      listener.done(key);
      observer.notified(Outcome.UNCHANGED, 0);
      // A change applied between the read above and done() merged into this attempt (its schedule
      // found the key pending): without this check it would reach the client only at its next
      // listen check (found by the config nemesis scenario, a remove then a publish of one key).
      recheck(listener, key, md5);
      return;
    }
    ObjectNode body = codec.object();
    body.put("dataId", listened.dataId());
    body.put("group", listened.group());
    if (listened.tenant() != null) {
      body.put("tenant", listened.tenant());
    }
    body.put("module", "config");
    body.putObject("headers");
    listener.connection().request("ConfigChangeNotifyRequest", body, retry.ackTimeout(), timer)
        .whenComplete((reply, error) -> {
          int code = reply == null ? 0 : reply.path("resultCode").asInt(200);
          if (error == null && code == 200) {
            listener.known(key, md5);
            listener.done(key);
            observer.notified(Outcome.ACKED, System.nanoTime() - sinceNanos);
            // A change between the read above and done() merged into this notification: check again.
            recheck(listener, key, md5);
            return;
          }
          String why = error != null ? error.getMessage() : "answered " + code + " " + reply.path("message").asText("");
          if (failures + 1 >= retry.maxAttempts() || !listener.connection().isOpen()) {
            listener.done(key);
            observer.notified(Outcome.GAVE_UP, System.nanoTime() - sinceNanos);
            log.warn("[{}] gave up telling {} that {} changed after {} attempts ({}); the client finds"
                + " out at its next listen check", nodeId, listener, key, failures + 1, why);
            return;
          }
          observer.notified(Outcome.FAILED, System.nanoTime() - sinceNanos);
          long delay = retry.delayMillis(failures + 1);
          log.debug("[{}] telling {} that {} changed failed ({}); retry in {} ms", nodeId, listener, key, why, delay);
          try {
            timer.schedule(() -> attempt(listener, key, sinceNanos, failures + 1), delay, TimeUnit.MILLISECONDS);
          } catch (RuntimeException e) {
            listener.done(key);
          }
        });
  }

  private void recheck(ConnectionListener listener, ConfigKey key, String pushed) {
    try {
      String now = ops.md5For(key, listener.clientIp(), listener.listened(key).map(Listened::tag).orElse(""));
      if (!now.equals(pushed)) {
        listener.changed(key);
      }
    } catch (RuntimeException e) {
      log.debug("[{}] re-checking {} for {}: {}", nodeId, key, listener, e.toString());
    }
  }
}
