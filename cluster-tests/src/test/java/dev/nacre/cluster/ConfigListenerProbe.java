package dev.nacre.cluster;

import com.alibaba.nacos.api.NacosFactory;
import com.alibaba.nacos.api.PropertyKeyConst;
import com.alibaba.nacos.api.config.ConfigService;
import com.alibaba.nacos.api.config.listener.AbstractListener;
import com.alibaba.nacos.api.exception.NacosException;
import dev.nacre.cluster.check.CheckResult;
import dev.nacre.cluster.check.InstanceKey;
import dev.nacre.cluster.check.Verdict;
import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigOperations;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Listeners on every member: one official nacos-client 2.5.1 ConfigService per member (its server
 * list that member only, over its gRPC client port), listening to every key of a scenario, each
 * remembering the md5 of the last content it was told of ("" for none or removed). {@code Node}
 * does not expose its config listeners, so the scenario listens as a Nacos client does, and the
 * client's own reconnect and re-sync are part of what is checked.
 */
final class ConfigListenerProbe implements AutoCloseable {
  private final List<ConfigService> clients = new ArrayList<>();
  /** "member key" to the last md5 heard. */
  private final Map<String, String> lastMd5 = new ConcurrentHashMap<>();
  private final Map<String, Integer> heard = new ConcurrentHashMap<>();
  private final Map<String, Long> lastHeardNanos = new ConcurrentHashMap<>();

  /** Connects to each member of {@code s} and listens to {@code keys}. */
  static ConfigListenerProbe on(Scenario s, List<InstanceKey> keys) {
    ConfigListenerProbe p = new ConfigListenerProbe();
    try {
      for (int i : s.all()) {
        Properties props = new Properties();
        props.setProperty(PropertyKeyConst.SERVER_ADDR, s.cluster().address(i));
        ConfigService c = NacosFactory.createConfigService(props);
        p.clients.add(c);
        for (InstanceKey k : keys) {
          String id = i + " " + k.instance();
          p.lastMd5.put(id, "");
          c.addListener(k.instance(), ConfigWorkloadClient.GROUP, new AbstractListener() {
            @Override
            public void receiveConfigInfo(String content) {
              p.lastMd5.put(id, content == null ? "" : md5(content));
              p.heard.merge(id, 1, Integer::sum);
              p.lastHeardNanos.put(id, System.nanoTime());
            }
          });
        }
      }
    } catch (NacosException | RuntimeException e) {
      p.close();
      throw new IllegalStateException("config listeners on the members: " + e, e);
    }
    return p;
  }

  /**
   * After the faults healed: every listener's last md5 equals the final md5 of each key (read on
   * the leader after a read barrier; "" when absent), within {@code atMost}.
   */
  CheckResult checkLastMd5(Scenario s, List<InstanceKey> keys, Duration atMost) {
    long start = System.nanoTime();
    List<String> wrong = new ArrayList<>();
    Optional<Boolean> done = Polling.poll(atMost, () -> {
      Optional<Map<InstanceKey, String>> finals = finalMd5s(s, keys);
      wrong.clear();
      if (finals.isEmpty()) {
        wrong.add("no final md5 read: no leader, or its read barrier failed");
        return Optional.empty();
      }
      for (int i : s.all()) {
        for (InstanceKey k : keys) {
          String seen = lastMd5.get(i + " " + k.instance());
          String want = finals.get().get(k);
          if (!want.equals(seen)) {
            String id = i + " " + k.instance();
            wrong.add("member " + i + " (" + s.cluster().address(i) + ") " + k.instance() + ": listener's last md5 "
                + show(seen) + ", final " + show(want) + " (" + heard.getOrDefault(id, 0)
                + " notifications, the last at +" + (lastHeardNanos.getOrDefault(id, 0L) - s.history().originNanos())
                / 1_000_000 + " ms)");
          }
        }
      }
      return wrong.isEmpty() ? Optional.of(true) : Optional.empty();
    });
    long ms = (System.nanoTime() - start) / 1_000_000;
    int notifications = heard.values().stream().mapToInt(Integer::intValue).sum();
    CheckResult r = done.isPresent()
        ? new CheckResult(Verdict.pass(clients.size() * keys.size() + " listeners hold the final md5 after " + ms
            + " ms (" + notifications + " notifications)"), List.of())
        : new CheckResult(Verdict.fail(wrong.size() + " listeners without the final md5 after " + ms + " ms; first: "
            + (wrong.isEmpty() ? "no final state read" : wrong.get(0))), List.copyOf(wrong));
    // The report's details are the listeners that missed it; say so in the report too.
    if (!r.details().isEmpty()) {
      r = new CheckResult(r.verdict(), java.util.stream.Stream.concat(java.util.stream.Stream.of(r.verdict().line()),
          r.details().stream()).toList());
    }
    s.check("listeners-last-md5", r.verdict(), String.join("\n", r.details()));
    return r;
  }

  private static Optional<Map<InstanceKey, String>> finalMd5s(Scenario s, List<InstanceKey> keys) {
    try {
      int leader = s.cluster().leader();
      if (leader < 0) {
        return Optional.empty();
      }
      ConfigOperations ops = s.cluster().node(leader).configs();
      ops.readBarrier().get(3, TimeUnit.SECONDS);
      Map<InstanceKey, String> out = new TreeMap<>();
      for (InstanceKey k : keys) {
        out.put(k, ops.formal(ConfigWorkloadClient.configKey(k)).map(ConfigItem::md5).orElse(""));
      }
      return Optional.of(out);
    } catch (Exception notYet) {
      return Optional.empty();
    }
  }

  private static String show(String md5) {
    return md5 == null || md5.isEmpty() ? "<none>" : md5;
  }

  static String md5(String content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    for (ConfigService c : clients) {
      try {
        c.shutDown();
      } catch (NacosException | RuntimeException e) {
        // Best effort: the scenario is over.
      }
    }
    clients.clear();
  }
}
