package dev.nacre.cluster;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/** Builds a {@link Scenario}: its name, cluster size and node settings. */
final class ScenarioBuilder {
  private final String name;
  private int nodes = 3;
  private boolean sizeFromProperty = true;
  private int spares;
  private final Map<String, String> settings = new LinkedHashMap<>();

  ScenarioBuilder(String name) {
    this.name = name;
  }

  /** The default size; {@value Scenario#NODES} may change it (3 or more). */
  ScenarioBuilder nodes(int defaultSize) {
    this.nodes = defaultSize;
    this.sizeFromProperty = true;
    return this;
  }

  /** A size the scenario depends on (e.g. a 2/3 split); {@value Scenario#NODES} is ignored. */
  ScenarioBuilder fixedNodes(int size) {
    this.nodes = size;
    this.sizeFromProperty = false;
    return this;
  }

  /** Nodes beyond the cluster's size, neither started nor members until the scenario adds them. */
  ScenarioBuilder spares(int count) {
    this.spares = count;
    return this;
  }

  /** A node setting (a {@code NodeConfig} key) for every node. */
  ScenarioBuilder setting(String key, String value) {
    settings.put(key, value);
    return this;
  }

  /** Starts the cluster in {@code dir} (a test's {@code @TempDir}). */
  Scenario start(Path dir) {
    int size = sizeFromProperty ? Integer.getInteger(Scenario.NODES, nodes) : nodes;
    if (size < 3) {
      throw new IllegalArgumentException(Scenario.NODES + " must be 3 or more (a CP scenario needs a majority), was " + size);
    }
    long seed = Long.getLong(Scenario.SEED, new Random().nextLong());
    return new Scenario(name, size, spares, seed, dir, settings);
  }
}
