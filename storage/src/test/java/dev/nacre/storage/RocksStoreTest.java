package dev.nacre.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class RocksStoreTest {
  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, String> contents(RocksStore store, String family) {
    Map<String, String> out = new TreeMap<>();
    store.forEach(family, (k, v) -> out.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
    return out;
  }

  @Test
  void commitIsDurableAcrossReopenWithAppliedIndex() {
    Path dir = tmp.resolve("db");
    try (RocksStore store = RocksStore.open(dir, List.of("a", "b"))) {
      assertThat(store.appliedIndex()).isZero();
      store.commit(new Batch().put("a", b("k1"), b("v1")).put("b", b("k2"), b("v2")), 7, 2);
      store.commit(new Batch().delete("a", b("k1")).put("a", b("k3"), b("v3")), 8, 2);
    }
    try (RocksStore store = RocksStore.open(dir, List.of("a", "b"))) {
      assertThat(store.appliedIndex()).isEqualTo(8);
      assertThat(store.appliedTerm()).isEqualTo(2);
      assertThat(contents(store, "a")).containsExactly(Map.entry("k3", "v3"));
      assertThat(store.get("b", b("k2"))).hasValueSatisfying(v -> assertThat(new String(v, StandardCharsets.UTF_8)).isEqualTo("v2"));
      assertThat(store.get("b", b("missing"))).isEmpty();
    }
  }

  @Test
  void checkpointCanReplaceAnotherStore() {
    try (RocksStore source = RocksStore.open(tmp.resolve("src"), List.of("a"));
        RocksStore target = RocksStore.open(tmp.resolve("dst"), List.of("a"))) {
      source.commit(new Batch().put("a", b("x"), b("1")), 5, 1);
      target.commit(new Batch().put("a", b("stale"), b("0")), 2, 1);
      Path cp = tmp.resolve("cp");
      source.checkpoint(cp);
      source.commit(new Batch().put("a", b("after"), b("2")), 6, 1);

      target.replaceWith(cp);

      assertThat(target.appliedIndex()).isEqualTo(5);
      assertThat(contents(target, "a")).containsExactly(Map.entry("x", "1"));
      target.commit(new Batch().put("a", b("y"), b("3")), 6, 1);
      assertThat(contents(target, "a")).containsOnlyKeys("x", "y");
    }
  }

  @Test
  void aReplacementLinksTheCheckpointsTablesAndOutlivesTheCheckpoint() throws IOException {
    Path dst = tmp.resolve("dst");
    Path cp = tmp.resolve("cp");
    try (RocksStore source = RocksStore.open(tmp.resolve("src"), List.of("a"));
        RocksStore target = RocksStore.open(dst, List.of("a"))) {
      source.commit(new Batch().put("a", b("x"), b("1")), 5, 1);
      source.checkpoint(cp);
      target.replaceWith(cp);

      List<Path> tables;
      try (Stream<Path> files = Files.list(cp)) {
        tables = files.filter(p -> p.getFileName().toString().endsWith(".sst")).toList();
      }
      assertThat(tables).as("the checkpoint flushed its data to a table file").isNotEmpty();
      for (Path table : tables) {
        assertThat(Files.isSameFile(table, dst.resolve(table.getFileName()))).as("%s linked, not copied", table).isTrue();
      }
    }
    RocksStore.deleteTree(cp); // as when Ratis drops an old snapshot
    try (RocksStore reopened = RocksStore.open(dst, List.of("a"))) {
      assertThat(reopened.appliedIndex()).isEqualTo(5);
      assertThat(contents(reopened, "a")).containsExactly(Map.entry("x", "1"));
    }
  }

  @Test
  void scanStartsAtTheGivenKeyAndStopsWhenTheVisitorSays() {
    try (RocksStore store = RocksStore.open(tmp.resolve("scan"), List.of("a"))) {
      store.commit(new Batch().put("a", b("p1"), b("1")).put("a", b("p2"), b("2")).put("a", b("p3"), b("3"))
          .put("a", b("q1"), b("4")).put("a", b("o9"), b("0")), 1, 1);
      List<String> seen = new java.util.ArrayList<>();
      store.scan("a", b("p2"), (k, v) -> {
        seen.add(new String(k, StandardCharsets.UTF_8));
        return seen.size() < 2;
      });
      assertThat(seen).containsExactly("p2", "p3");

      store.close();
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.scan("a", b("p"), (k, v) -> true))
          .isInstanceOf(StorageException.class).hasMessageContaining("closed");
    }
  }
}
