package dev.nacre.node.config;

import dev.nacre.consensus.distro.DistroConfig;
import java.time.Duration;

/**
 * How members find and trust each other and replicate ephemeral data.
 *
 * @param secret shared by every member; proves peer calls (never sent itself)
 * @param pingPeriod how often each member pings every other one
 * @param failedPingsToDown missed pings in a row after which a member is DOWN (Nacos: 3)
 */
public record ClusterSettings(String secret, Duration pingPeriod, int failedPingsToDown, DistroConfig distro) {
  @Override
  public String toString() {
    // Never log the secret.
    return "ClusterSettings[secret=" + (secret.isEmpty() ? "<none>" : "<set>") + ", pingPeriod=" + pingPeriod
        + ", failedPingsToDown=" + failedPingsToDown + ", distro=" + distro + "]";
  }
}
