package dev.nacre.consensus.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.consensus.raft.OperationRejectedException;
import dev.nacre.consensus.raft.Outcome;
import dev.nacre.storage.Batch;
import dev.nacre.storage.RocksStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared state machine: each operation to its domain, an entry atomic over domains, replays skipped. */
class DomainStateMachineTest {
  @TempDir Path dir;

  /** A domain that stores "key=value" operations in its one family and mirrors them in memory. */
  private static final class KeyValues implements StateDomain {
    final byte kind;
    final String family;
    final Map<String, String> memory = new TreeMap<>();
    final List<Long> applied = new ArrayList<>();

    KeyValues(char kind, String family) {
      this.kind = (byte) kind;
      this.family = family;
    }

    @Override
    public byte kind() {
      return kind;
    }

    @Override
    public String name() {
      return family;
    }

    @Override
    public List<String> families() {
      return List.of(family);
    }

    @Override
    public Applied apply(RocksStore store, long logIndex, byte[] operation, int offset, Batch entry) {
      String[] kv = new String(operation, offset, operation.length - offset, StandardCharsets.UTF_8).split("=", 2);
      if (kv.length != 2) {
        throw new OperationRejectedException("not key=value");
      }
      Batch batch = new Batch().put(family, bytes(kv[0]), bytes(kv[1]));
      return Applied.of(batch, () -> {
        memory.put(kv[0], kv[1]);
        applied.add(logIndex);
      });
    }

    @Override
    public void load(RocksStore store) {
      memory.clear();
      store.forEach(family, (k, v) -> memory.put(string(k), string(v)));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String string(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static byte[] op(char kind, String body) {
    byte[] b = bytes(body);
    byte[] marked = new byte[b.length + 1];
    marked[0] = (byte) kind;
    System.arraycopy(b, 0, marked, 1, b.length);
    return marked;
  }

  @Test
  void eachOperationGoesToItsDomainAndAnUnknownKindIsRefusedAlone() {
    KeyValues a = new KeyValues('A', "a-values");
    KeyValues b = new KeyValues('B', "b-values");
    try (DomainStateMachine machine = DomainStateMachine.open(dir, List.of(a, b))) {
      List<Outcome> outcomes = machine.apply(1, List.of(op('A', "x=1"), op('B', "x=2"), op('Z', "x=3"),
          op('A', "bad"), new byte[0]));
      assertThat(outcomes).extracting(Outcome::isRejected).containsExactly(false, false, true, true, true);
      assertThat(a.memory).containsExactly(Map.entry("x", "1"));
      assertThat(b.memory).containsExactly(Map.entry("x", "2"));
      assertThat(machine.lastAppliedIndex()).isEqualTo(1);
    }
  }

  @Test
  void anEntryOfTwoDomainsIsDurableWholeAndAReplayIsSkipped() {
    try (DomainStateMachine machine = DomainStateMachine.open(dir,
        List.of(new KeyValues('A', "a-values"), new KeyValues('B', "b-values")))) {
      machine.apply(1, List.of(op('A', "x=1"), op('B', "y=1")));
      machine.apply(2, List.of(op('A', "x=2")));
    }
    KeyValues a = new KeyValues('A', "a-values");
    KeyValues b = new KeyValues('B', "b-values");
    try (DomainStateMachine reopened = DomainStateMachine.open(dir, List.of(a, b))) {
      assertThat(reopened.lastAppliedIndex()).isEqualTo(2);
      assertThat(a.memory).containsExactly(Map.entry("x", "2"));
      assertThat(b.memory).containsExactly(Map.entry("y", "1"));
      // Ratis may replay entries at or below the applied index after a restart: none applies again.
      reopened.apply(1, List.of(op('A', "x=1"), op('B', "y=1")));
      assertThat(a.memory).containsExactly(Map.entry("x", "2"));
      assertThat(a.applied).isEmpty();
    }
  }

  @Test
  void aSnapshotCarriesEveryDomainAndInstallingItReloadsThem() throws Exception {
    Path snapshot = Files.createDirectories(dir.resolve("snapshot"));
    try (DomainStateMachine machine = DomainStateMachine.open(dir.resolve("one"),
        List.of(new KeyValues('A', "a-values"), new KeyValues('B', "b-values")))) {
      machine.setCurrentTerm(3);
      machine.apply(1, List.of(op('A', "x=1"), op('B', "y=1")));
      machine.writeSnapshot(snapshot);
    }
    KeyValues a = new KeyValues('A', "a-values");
    KeyValues b = new KeyValues('B', "b-values");
    try (DomainStateMachine other = DomainStateMachine.open(dir.resolve("two"), List.of(a, b))) {
      other.installSnapshot(snapshot);
      assertThat(other.lastAppliedIndex()).isEqualTo(1);
      assertThat(other.lastAppliedTerm()).isEqualTo(3);
      assertThat(a.memory).containsExactly(Map.entry("x", "1"));
      assertThat(b.memory).containsExactly(Map.entry("y", "1"));
    }
  }

  @Test
  void domainsMayNotShareAKindOrAFamily() {
    assertThatThrownBy(() -> DomainStateMachine.open(dir,
        List.of(new KeyValues('A', "one"), new KeyValues('A', "two"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind");
    assertThatThrownBy(() -> DomainStateMachine.open(dir,
        List.of(new KeyValues('A', "same"), new KeyValues('B', "same"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same");
  }
}
