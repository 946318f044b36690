package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.ConfigListeners;
import dev.nacre.config.api.ConfigOperations;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Router;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Nacos 1.x's config long polling, {@code POST /nacos/v1/cs/configs/listener}. The client sends
 * {@code Listening-Configs}: per config {@code dataId ^B group ^B md5 [^B tenant] ^A}. The answer
 * lists the configs whose md5 differs, in the same separators, URL-encoded: at once when one
 * already differs, when the client asks not to be held ({@code Long-Pulling-Timeout-No-Hangup}) or
 * sends no {@code Long-Pulling-Timeout}; else the poll is held, without a thread, until a listened
 * config changes or the timeout less {@value #MARGIN_MS} ms (at least {@value #MIN_HOLD_MS} ms, as
 * Nacos) passes (then the answer is empty). A held poll stops listening when answered and when its
 * connection closes.
 */
final class LongPolling {
  static final String LISTENER = "/nacos/v1/cs/configs/listener";
  static final long MIN_HOLD_MS = 10_000;
  static final long MARGIN_MS = 500;
  /** A held poll's ceiling, whatever the client asks. */
  static final long MAX_HOLD_MS = 300_000;
  static final int MAX_KEYS = 10_000;
  private static final char WORD = '\u0002';
  private static final char LINE = '\u0001';

  private final ConfigOperations operations;
  private final ConfigListeners listeners;
  private final AtomicLong polls = new AtomicLong();

  LongPolling(ConfigOperations operations, ConfigListeners listeners) {
    this.operations = operations;
    this.listeners = listeners;
  }

  void register(Router router) {
    router.addAsync("POST", LISTENER, this::poll);
  }

  /** A listened config: the md5 the client knows and the tenant as it sent it (echoed back). */
  record Probe(String md5, String tenant) {}

  CompletableFuture<ApiResponse> poll(ApiRequest r) {
    Map<ConfigKey, Probe> probes = parse(ConfigV1Api.raw(r, "Listening-Configs").orElse(""));
    String ip = ConfigParams.clientIp(r);
    String tag = r.header("Vipserver-Tag").orElse("");
    Long timeout = r.header("Long-Pulling-Timeout").map(LongPolling::millis).orElse(null);
    boolean noHangup = r.header("Long-Pulling-Timeout-No-Hangup").filter("true"::equals).isPresent();
    List<ConfigKey> changed = changed(probes, ip, tag);
    if (!changed.isEmpty() || timeout == null || noHangup) {
      return CompletableFuture.completedFuture(answer(changed, probes));
    }
    long hold = Math.min(MAX_HOLD_MS, Math.max(MIN_HOLD_MS, timeout - MARGIN_MS));
    return new Held(probes, ip, tag, "http-poll-" + ip + "-" + polls.incrementAndGet()).start(r, hold);
  }

  private static long millis(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw HttpError.badRequest("Header 'Long-Pulling-Timeout' must be milliseconds, got '" + value + "'.");
    }
  }

  private List<ConfigKey> changed(Map<ConfigKey, Probe> probes, String ip, String tag) {
    List<ConfigKey> changed = new ArrayList<>();
    probes.forEach((key, probe) -> {
      if (!operations.md5For(key, ip, tag).equals(probe.md5())) {
        changed.add(key);
      }
    });
    return changed;
  }

  /** A poll waiting for a change: listens on its keys until answered. */
  private final class Held implements ConfigListeners.Listener {
    private final Map<ConfigKey, Probe> probes;
    private final String ip;
    private final String tag;
    private final String clientId;
    private final CompletableFuture<ApiResponse> answer = new CompletableFuture<>();

    Held(Map<ConfigKey, Probe> probes, String ip, String tag, String clientId) {
      this.probes = probes;
      this.ip = ip;
      this.tag = tag;
      this.clientId = clientId;
    }

    CompletableFuture<ApiResponse> start(ApiRequest r, long holdMillis) {
      Runnable unhook = r.onClose(() -> answer.complete(LongPolling.this.answer(List.of(), probes)));
      answer.whenComplete((response, failure) -> {
        listeners.cancelAll(this);
        unhook.run();
      });
      try {
        probes.forEach((key, probe) -> listeners.listen(this, key, probe.md5()));
      } catch (RuntimeException e) {
        answer.completeExceptionally(e); // e.g. LIMITED: stops what was started
        return answer;
      }
      if (answer.isDone()) {
        listeners.cancelAll(this); // the connection closed while the listeners were added
        return answer;
      }
      // A change applied before the listeners were in place is seen here.
      List<ConfigKey> changed = LongPolling.this.changed(probes, ip, tag);
      if (!changed.isEmpty()) {
        answer.complete(LongPolling.this.answer(changed, probes));
      }
      answer.completeOnTimeout(LongPolling.this.answer(List.of(), probes), holdMillis, TimeUnit.MILLISECONDS);
      return answer;
    }

    @Override
    public String clientId() {
      return clientId;
    }

    @Override
    public String clientIp() {
      return ip;
    }

    /** On the applying thread: one md5 lookup, then the answer's write is handed to the connection's loop. */
    @Override
    public void changed(ConfigKey key) {
      Probe probe = probes.get(key);
      if (probe != null && !answer.isDone() && !operations.md5For(key, ip, tag).equals(probe.md5())) {
        answer.complete(LongPolling.this.answer(List.of(key), probes));
      }
    }
  }

  /** The changed configs, URL-encoded; empty text for none. */
  ApiResponse answer(Collection<ConfigKey> changed, Map<ConfigKey, Probe> probes) {
    StringBuilder text = new StringBuilder();
    for (ConfigKey key : changed) {
      text.append(key.dataId()).append(WORD).append(key.group());
      String tenant = probes.get(key).tenant();
      if (!tenant.isBlank()) {
        text.append(WORD).append(tenant);
      }
      text.append(LINE);
    }
    return ConfigV1Api.noCache(ApiResponse.text(200, URLEncoder.encode(text.toString(), StandardCharsets.UTF_8)));
  }

  /** Reads {@code Listening-Configs}; any malformed line is a 400 naming it. */
  static Map<ConfigKey, Probe> parse(String listening) {
    if (listening.isBlank()) {
      throw HttpError.badRequest("invalid probeModify: Param 'Listening-Configs' is required.");
    }
    Map<ConfigKey, Probe> probes = new LinkedHashMap<>();
    for (String line : listening.split(String.valueOf(LINE))) {
      if (line.isEmpty()) {
        continue;
      }
      String[] words = line.split(String.valueOf(WORD), -1);
      if (words.length != 3 && words.length != 4) {
        throw HttpError.badRequest("invalid probeModify: each config is dataId, group, md5 and an optional"
            + " tenant separated by \\u0002, configs ended by \\u0001; got " + words.length + " fields");
      }
      String tenant = words.length == 4 ? words[3] : "";
      ConfigKey key = ConfigParams.checked(tenant, words[1], words[0]);
      probes.put(key, new Probe(words[2], tenant));
      if (probes.size() > MAX_KEYS) {
        throw HttpError.badRequest("invalid probeModify: more than " + MAX_KEYS + " configs in one poll;"
            + " split them over several polls");
      }
    }
    if (probes.isEmpty()) {
      throw HttpError.badRequest("invalid probeModify: no config in 'Listening-Configs'.");
    }
    return probes;
  }
}
