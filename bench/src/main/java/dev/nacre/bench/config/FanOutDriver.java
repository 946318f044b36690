package dev.nacre.bench.config;

import com.alibaba.nacos.api.config.listener.AbstractListener;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One of the fan-out's driver JVMs (started by {@link FanOut}): listeners {@code first ..
 * first + count - 1} of the fan-out, listener l on member l % n, each its own ConfigService. Talks
 * to the coordinator over stdin and stdout, protocol lines starting with {@code @@}:
 * <pre>
 *   -> @@ ready THREADS                 every listener added
 *   <- arm R                            expect round R's content from now on
 *   -> @@ armed R
 *   -> @@ heard R T0,T1,...             once all heard, or 40 s after arm: each listener's
 *                                       receiveConfigInfo in epoch microseconds (0: not heard)
 *   <- quit                             close the ConfigServices and exit
 * </pre>
 * Epoch microseconds ({@link Instant#now()}: the one wall clock of this machine) so that the
 * coordinator compares them with the publish acknowledgement it timed in another JVM.
 *
 * <p>Arguments: nodes(comma-separated) first count dataId group contentBytes.
 */
public final class FanOutDriver {
  private static final long ROUND_LIMIT_MS = 40_000;

  private FanOutDriver() {}

  static long epochMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  public static void main(String[] args) throws Exception {
    List<String> nodes = List.of(args[0].split(","));
    int first = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    String dataId = args[3];
    String group = args[4];
    int contentBytes = Integer.parseInt(args[5]);
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
    // nacos-client may print to System.out: keep the protocol channel for this class alone.
    System.setOut(System.err);

    List<Client> listeners = new ArrayList<>();
    ExecutorService open = Executors.newFixedThreadPool(8);
    try {
      // The first alone: nacos-client loads its server list provider (SPI) on first use, and
      // parallel first uses failed with "No server list provider found".
      listeners.add(Client.open(nodes.get(first % nodes.size()), false));
      List<Future<Client>> opened = new ArrayList<>();
      for (int k = 1; k < count; k++) {
        String node = nodes.get((first + k) % nodes.size());
        opened.add(open.submit(() -> Client.open(node, false)));
      }
      for (Future<Client> f : opened) {
        listeners.add(f.get(4, TimeUnit.MINUTES));
      }
    } finally {
      open.shutdownNow();
    }
    AtomicLongArray received = new AtomicLongArray(count);
    AtomicReference<String> expected = new AtomicReference<>("");
    AtomicReference<CountDownLatch> latch = new AtomicReference<>(new CountDownLatch(0));
    ExecutorService add = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> added = new ArrayList<>();
      for (int k = 0; k < count; k++) {
        int index = k;
        added.add(add.submit(() -> {
          listeners.get(index).config().addListener(dataId, group, new AbstractListener() {
            @Override
            public void receiveConfigInfo(String configInfo) {
              long now = epochMicros();
              if (configInfo != null && configInfo.equals(expected.get()) && received.compareAndSet(index, 0, now)) {
                latch.get().countDown();
              }
            }
          });
          return null;
        }));
      }
      for (Future<?> f : added) {
        f.get(4, TimeUnit.MINUTES);
      }
    } finally {
      add.shutdownNow();
    }
    out.println("@@ ready " + Thread.activeCount());

    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Thread waiter = null;
    String line;
    while ((line = in.readLine()) != null && !line.equals("quit")) {
      if (!line.startsWith("arm ")) {
        continue;
      }
      if (waiter != null) {
        waiter.join(ROUND_LIMIT_MS + 5_000);
      }
      int round = Integer.parseInt(line.substring(4).trim());
      for (int k = 0; k < count; k++) {
        received.set(k, 0);
      }
      CountDownLatch everyone = new CountDownLatch(count);
      latch.set(everyone);
      expected.set(FanOut.content(round, contentBytes));
      out.println("@@ armed " + round);
      waiter = new Thread(() -> {
        try {
          everyone.await(ROUND_LIMIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        StringBuilder s = new StringBuilder("@@ heard ").append(round).append(' ');
        for (int k = 0; k < count; k++) {
          s.append(k == 0 ? "" : ",").append(received.get(k));
        }
        out.println(s);
      }, "fan-out-round-" + round);
      waiter.start();
    }
    Client.closeAll(listeners);
    System.exit(0); // nacos-client leaves non-daemon threads behind
  }
}
