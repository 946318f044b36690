package dev.nacre.node.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.nacre.proto.nacos.Payload;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CpRequestPoolTest {

  @Test
  void onlyRequestsThatMayWaitForACpWriteLeaveTheTransportThread() {
    assertThat(CpRequestPool.mayWait("PersistentInstanceRequest", body("{}"))).isTrue();
    assertThat(CpRequestPool.mayWait("InstanceRequest", body("{\"instance\":{\"ephemeral\":false}}"))).isTrue();
    assertThat(CpRequestPool.mayWait("InstanceRequest", body("{\"instance\":{\"ephemeral\" : true}}")))
        .as("unclear: waiting is harmless").isTrue();
    assertThat(CpRequestPool.mayWait("InstanceRequest", body("{\"instance\":{\"ephemeral\":true}}"))).isFalse();
    assertThat(CpRequestPool.mayWait("BatchInstanceRequest", body("{}"))).isFalse();
    assertThat(CpRequestPool.mayWait("ServiceQueryRequest", body("{}"))).isFalse();
  }

  @Test
  void aFullPoolRefusesInsteadOfQueueingWithoutBound() throws InterruptedException {
    CpRequestPool pool = new CpRequestPool("test");
    CountDownLatch release = new CountDownLatch(1);
    try {
      int accepted = 0;
      for (int i = 0; i < CpRequestPool.THREADS + CpRequestPool.QUEUE + 10; i++) {
        if (pool.offer(() -> awaitQuietly(release))) {
          accepted++;
        }
      }
      assertThat(accepted).isEqualTo(CpRequestPool.THREADS + CpRequestPool.QUEUE);
    } finally {
      release.countDown();
      pool.close();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Payload body(String json) {
    return Payload.newBuilder().setBody(Any.newBuilder().setValue(ByteString.copyFromUtf8(json))).build();
  }
}
