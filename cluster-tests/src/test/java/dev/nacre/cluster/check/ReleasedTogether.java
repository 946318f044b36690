package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
  * Client processes on their own threads, released at one instant so that they overlap as much as
  * they can, then each awaited: the concurrent recording tests here each had this pool, latch and
  * join written out.
  */
final class ReleasedTogether {
    /** What process number {@code process} does once released. */
    interface Process {
        void run(int process) throws Exception;
    }

    private ReleasedTogether() {}

    /** Runs {@code processes} processes, numbered from 0, and waits up to {@code seconds} for each. */
    static void run(int processes, int seconds, Process body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(processes);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < processes; t++) {
                int process = t;
                done.add(pool.submit(() -> {
                    start.await();
                    body.run(process);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(seconds, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
