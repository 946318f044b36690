package dev.nacre.node.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemberAddressTest {
  @Test
  void everyPortDerivesFromTheMainOne() {
    MemberAddress a = MemberAddress.parse("10.0.0.7:8848");

    assertThat(a.host()).isEqualTo("10.0.0.7");
    assertThat(a.port()).isEqualTo(8848);
    assertThat(a.raftPort()).isEqualTo(7848);
    assertThat(a.clientGrpcPort()).isEqualTo(9848);
    assertThat(a.peerPort()).isEqualTo(9849);
    assertThat(a.raftAddress()).isEqualTo("10.0.0.7:7848");
    assertThat(a).hasToString("10.0.0.7:8848");
  }

  @Test
  void ipv6LiteralsKeepTheirBracketsInTextOnly() {
    MemberAddress a = MemberAddress.parse("[::1]:8848");

    assertThat(a.host()).isEqualTo("::1");
    assertThat(a.raftAddress()).isEqualTo("[::1]:7848");
    assertThat(a).hasToString("[::1]:8848");
  }

  @Test
  void badAddressesSayWhy() {
    assertThatThrownBy(() -> MemberAddress.parse("nohostport")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> MemberAddress.parse("host:eighty")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> MemberAddress.parse(":8848")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> MemberAddress.parse("host:999")).hasMessageContaining("P-1000");
    assertThatThrownBy(() -> MemberAddress.parse("host:65000")).hasMessageContaining("P-1000");
  }
}
