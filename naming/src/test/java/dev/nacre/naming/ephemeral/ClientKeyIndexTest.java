package dev.nacre.naming.ephemeral;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientKeyIndexTest {
  private static final ServiceKey A = new ServiceKey("public", "DEFAULT_GROUP", "a");
  private static final ServiceKey B = new ServiceKey("public", "DEFAULT_GROUP", "b");

  private final ClientKeyIndex index = new ClientKeyIndex();

  @Test
  void keysAreFoundPerClientAndPerService() {
    InstanceKey a1 = key(A, 1);
    InstanceKey a2 = key(A, 2);
    InstanceKey b1 = key(B, 1);
    index.moved(a1, null, record(a1, "c1"));
    index.moved(a2, null, record(a2, "c1"));
    index.moved(b1, null, record(b1, "c1"));

    assertThat(index.keysOf("c1", A)).containsExactlyInAnyOrder(a1, a2);
    assertThat(index.keysOf("c1", B)).containsExactly(b1);
    assertThat(index.keysOf("c1")).containsExactlyInAnyOrder(a1, a2, b1);
    assertThat(index.keysOf("c2", A)).isEmpty();
  }

  @Test
  void aKeyMovesBetweenClientsAndEmptyEntriesGo() {
    InstanceKey a1 = key(A, 1);
    EphemeralRecord first = record(a1, "c1");
    index.moved(a1, null, first);
    EphemeralRecord taken = record(a1, "c2");
    index.moved(a1, first, taken);

    assertThat(index.keysOf("c1", A)).isEmpty();
    assertThat(index.keysOf("c2", A)).containsExactly(a1);
    assertThat(index.clients()).isEqualTo(1);

    index.moved(a1, taken, null);
    assertThat(index.keysOf("c2")).isEmpty();
    assertThat(index.clients()).isZero();
  }

  private static InstanceKey key(ServiceKey service, int n) {
    return new InstanceKey(service, "DEFAULT", "10.0.0." + n, 8080);
  }

  private static EphemeralRecord record(InstanceKey key, String clientId) {
    return new EphemeralRecord(new Instance(key, 1.0, true, true, true, Map.of()), "node", 1, 0, clientId);
  }
}
