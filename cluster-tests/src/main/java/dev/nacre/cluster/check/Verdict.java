package dev.nacre.cluster.check;

import java.util.Objects;

/** A checker's verdict: a status and a one-line reason, printable as a scenario's result line. */
public record Verdict(Status status, String reason) {

    public enum Status {
        PASS,
        FAIL,
        /** The checker could not decide (search budget exhausted, too little data). */
        INCONCLUSIVE
    }

    public Verdict {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reason, "reason");
        if (reason.contains("\n")) {
            throw new IllegalArgumentException("a verdict reason is one line: " + reason);
        }
    }

    public static Verdict pass(String reason) {
        return new Verdict(Status.PASS, reason);
    }

    public static Verdict fail(String reason) {
        return new Verdict(Status.FAIL, reason);
    }

    public static Verdict inconclusive(String reason) {
        return new Verdict(Status.INCONCLUSIVE, reason);
    }

    public boolean passed() {
        return status == Status.PASS;
    }

    /** {@code PASS: reason}, {@code FAIL: reason} or {@code INCONCLUSIVE: reason}. */
    public String line() {
        return status + ": " + reason;
    }

    @Override
    public String toString() {
        return line();
    }
}
