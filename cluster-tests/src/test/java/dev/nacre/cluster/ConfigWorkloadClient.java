package dev.nacre.cluster;

import dev.nacre.cluster.check.HistoryRecorder;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Mode;
import dev.nacre.cluster.check.Op;
import dev.nacre.cluster.check.OpKind;
import dev.nacre.config.api.ConfigException;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The configuration calls a scenario's clients make on each member's {@code Node.configs()}, in
 * process, each recorded in the scenario's history so that the CP checkers judge them: a
 * configuration key is a register ({@link #instanceKey}: service {@code config/<group>}, instance
 * the dataId), a publish a REGISTER of its content, a remove a DEREGISTER, and a read (through
 * {@code readBarrier()} then {@code formal()}) a READ. Contents are unique per scenario (the
 * workload's values), so a read tells which publish it saw.
 *
 * <p>Outcomes follow {@code OutcomeRules}: a refusal before the log (INVALID, CONFLICT, LIMITED,
 * NOT_FOUND) or a stopped member is FAIL; UNAVAILABLE (no quorum: the entry may still commit) and
 * a timeout are UNKNOWN; the note starts with the {@link ConfigException.Kind}. Every read that
 * returned, barrier or not, is kept as a {@link Served} for {@link ConfigChecks#monotonicReads}.
 *
 * <p>In process, these calls bypass the client-side faults ({@code isolateFromClients}) and the
 * client port's hold of a paused member. Thread-safe.
 */
final class ConfigWorkloadClient {
  static final String GROUP = "FAULTS";
  private static final String SERVICE = "config/" + GROUP;

  /** What one member served for one key: its revision, 0 when absent. {@code epoch} counts the member's lost disks. */
  record Served(String node, int epoch, InstanceKey key, long revision, String content, long invokeNanos,
      long completeNanos) {}

  private final LocalCluster cluster;
  private final HistoryRecorder recorder;
  private final ConcurrentLinkedQueue<Served> served = new ConcurrentLinkedQueue<>();
  private final Map<Integer, Integer> epochs = new ConcurrentHashMap<>();

  ConfigWorkloadClient(LocalCluster cluster, HistoryRecorder recorder) {
    this.cluster = cluster;
    this.recorder = recorder;
  }

  /** {@code count} keys {@code <prefix>-<k>.properties} of group {@value #GROUP}. */
  static List<InstanceKey> keys(String prefix, int count) {
    return java.util.stream.IntStream.rangeClosed(1, count)
        .mapToObj(k -> InstanceKey.of(SERVICE, prefix + "-" + k + ".properties")).toList();
  }

  static ConfigKey configKey(InstanceKey key) {
    if (!key.service().equals(SERVICE)) {
      throw new IllegalArgumentException("not a configuration key of this client: " + key);
    }
    return new ConfigKey("", GROUP, key.instance());
  }

  static InstanceKey instanceKey(ConfigKey key) {
    return InstanceKey.of("config/" + key.group(), key.dataId());
  }

  /** Member {@code node} lost its disk: what it serves from now on is compared with what it serves later only. */
  void diskLost(int node) {
    epochs.merge(node, 1, Integer::sum);
  }

  List<Served> served() {
    return List.copyOf(served);
  }

  /** Publishes {@code content} as the formal content of {@code key} through member {@code node}. */
  Op publish(int process, int node, InstanceKey key, String content) {
    HistoryRecorder.Pending p = recorder.invoke(process, cluster.address(node), OpKind.REGISTER, Mode.CP, key,
        Optional.of(content));
    ConfigOperations ops = operations(node);
    if (ops == null) {
      return p.fail("member stopped: nothing sent");
    }
    PublishRequest r = new PublishRequest(configKey(key), content, "properties", "faults", "", "", "", "p" + process,
        sourceIp(process), Optional.empty(), Optional.empty(), Optional.empty());
    return write(p, () -> ops.publish(r));
  }

  /** Removes the formal content of {@code key} (with its beta and tags) through member {@code node}. */
  Op remove(int process, int node, InstanceKey key) {
    HistoryRecorder.Pending p = recorder.invoke(process, cluster.address(node), OpKind.DEREGISTER, Mode.CP, key,
        Optional.empty());
    ConfigOperations ops = operations(node);
    if (ops == null) {
      return p.fail("member stopped: nothing sent");
    }
    RemoveRequest r = new RemoveRequest(configKey(key), false, Optional.empty(), "p" + process, sourceIp(process));
    return write(p, () -> ops.remove(r));
  }

  /** A linearizable read: {@code readBarrier()} on member {@code node}, then its formal content. */
  Op read(int process, int node, InstanceKey key) {
    HistoryRecorder.Pending p = recorder.invoke(process, cluster.address(node), OpKind.READ, Mode.CP, key,
        Optional.empty());
    long invoked = System.nanoTime();
    ConfigOperations ops = operations(node);
    if (ops == null) {
      return p.fail("member stopped");
    }
    try {
      ops.readBarrier().get(WorkloadClient.REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return p.fail(describe(e.getCause()));
    } catch (TimeoutException e) {
      return p.fail("read barrier: no answer within " + WorkloadClient.REQUEST_TIMEOUT.toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return p.fail("interrupted");
    }
    Optional<ConfigItem> item = formal(ops, key);
    if (item == null) {
      return p.fail("member stopped during the read");
    }
    record(node, key, item, invoked);
    return p.okRead(item.map(ConfigItem::content));
  }

  /**
   * A plain read of member {@code node}'s formal content, as the client ports serve it (no
   * barrier: not linearizable, so not in the history); kept for the monotonic-reads check.
   * Empty when the member is stopped.
   */
  Optional<Optional<ConfigItem>> plainRead(int node, InstanceKey key) {
    long invoked = System.nanoTime();
    ConfigOperations ops = operations(node);
    Optional<ConfigItem> item = ops == null ? null : formal(ops, key);
    if (item == null) {
      return Optional.empty();
    }
    record(node, key, item, invoked);
    return Optional.of(item);
  }

  private void record(int node, InstanceKey key, Optional<ConfigItem> item, long invoked) {
    served.add(new Served(cluster.address(node), epochs.getOrDefault(node, 0), key,
        item.map(ConfigItem::revision).orElse(0L), item.map(ConfigItem::content).orElse(null), invoked,
        System.nanoTime()));
  }

  /** The member's formal content; null when it stopped meanwhile (its store closed). */
  private static Optional<ConfigItem> formal(ConfigOperations ops, InstanceKey key) {
    try {
      return ops.formal(configKey(key));
    } catch (RuntimeException closed) {
      return null;
    }
  }

  private ConfigOperations operations(int node) {
    try {
      return cluster.node(node).configs();
    } catch (IllegalStateException stopped) {
      return null;
    }
  }

  private static Op write(HistoryRecorder.Pending p, java.util.function.Supplier<CompletableFuture<?>> call) {
    try {
      call.get().get(WorkloadClient.REQUEST_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return p.ok();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof ConfigException c && c.kind() != ConfigException.Kind.UNAVAILABLE) {
        return p.fail(describe(c));
      }
      return p.unknown(describe(cause));
    } catch (TimeoutException e) {
      return p.unknown("TIMEOUT: no answer within " + WorkloadClient.REQUEST_TIMEOUT.toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return p.unknown("interrupted");
    } catch (RuntimeException e) {
      // Thrown by the call itself (the member closing under it): it may have been submitted.
      return p.unknown(describe(e));
    }
  }

  static String describe(Throwable t) {
    if (t instanceof ConfigException c) {
      return c.kind() + ": " + c.getMessage();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  /** One source address per process, so that a per-address publish limit never throttles the workload. */
  private static String sourceIp(int process) {
    return "127.0." + (process / 250) + "." + (process % 250 + 1);
  }
}
