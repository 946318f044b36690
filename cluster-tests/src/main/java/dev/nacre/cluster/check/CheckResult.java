package dev.nacre.cluster.check;

import java.util.List;

/**
 * What a checker found: a one-line verdict for the scenario line and the detail lines (each
 * violation, or how the verdict was reached) for a test failure message.
 */
public record CheckResult(Verdict verdict, List<String> details) {

    public CheckResult {
        details = List.copyOf(details);
    }

    /** The verdict line followed by the details, indented. */
    public String report() {
        StringBuilder b = new StringBuilder(verdict.line());
        for (String d : details) {
            b.append("\n  ").append(d.replace("\n", "\n  "));
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return report();
    }
}
