package dev.nacre.node.naming.udp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A 1.x receiver's client id is made and read in one place; what it names survives the trip. */
@Timeout(10)
class UdpPushTargetIdTest {
  @Test
  void theReceiverComesBackFromItsIdWithOrWithoutAClustersFilter() {
    InetSocketAddress v4 = new InetSocketAddress("127.0.0.1", 40000);
    InetSocketAddress v6 = new InetSocketAddress("::1", 40001);
    assertThat(UdpPushTarget.receiverOf(UdpPushTarget.clientId(v4, ""))).contains(Map.entry("127.0.0.1", 40000));
    assertThat(UdpPushTarget.receiverOf(UdpPushTarget.clientId(v4, "a,b"))).contains(Map.entry("127.0.0.1", 40000));
    assertThat(UdpPushTarget.receiverOf(UdpPushTarget.clientId(v6, "")))
        .contains(Map.entry(v6.getAddress().getHostAddress(), 40001));
  }

  @Test
  void anythingElseNamesNoReceiver() {
    assertThat(UdpPushTarget.receiverOf("1700000000000_127.0.0.1_51234")).isEqualTo(Optional.empty());
    assertThat(UdpPushTarget.receiverOf("udp:127.0.0.1")).isEmpty();
    assertThat(UdpPushTarget.receiverOf("udp:127.0.0.1:port")).isEmpty();
    assertThat(UdpPushTarget.receiverOf("udp:")).isEmpty();
  }
}
