package dev.nacre.cluster.check;

/**
 * The seed of a randomized check: {@code -Dcheck.seed=N} replays a run, else the clock picks one.
 * Printed when read, with how to replay it, so that a failure can be run again.
 */
final class CheckSeed {
    private CheckSeed() {}

    /** The seed, printed with the option that replays it. */
    static long announced() {
        long seed = Long.getLong("check.seed", System.nanoTime());
        System.out.println("seed " + seed + " (replay: -Dcheck.seed=" + seed + ")");
        return seed;
    }
}
