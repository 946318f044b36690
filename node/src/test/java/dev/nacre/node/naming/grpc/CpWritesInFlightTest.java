package dev.nacre.node.naming.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpWritesInFlightTest {

  @Test
  void refusesPastItsBoundAndTakesWritesAgainOnceAnswered() {
    CpWritesInFlight writes = new CpWritesInFlight();
    int taken = 0;
    for (int i = 0; i < CpWritesInFlight.MAX + 10; i++) {
      if (writes.tryEnter()) {
        taken++;
      }
    }
    assertThat(taken).isEqualTo(CpWritesInFlight.MAX);
    assertThat(writes.inFlight()).isEqualTo(CpWritesInFlight.MAX);
    writes.exit();
    assertThat(writes.tryEnter()).as("a slot freed by an answered write").isTrue();
    assertThat(writes.tryEnter()).isFalse();
  }
}
