package dev.nacre.node.cluster.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nacre.node.config.MemberAddress;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PeerTlsTest {
  private static final MemberAddress SELF = new MemberAddress("127.0.0.1", 8848);

  @Test
  void aShortSecretIsRefusedWithTheSettingToFix() {
    assertThatThrownBy(() -> PeerTls.create("too short", SELF, Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 16 characters")
        .hasMessageContaining("nacre.cluster.secret");
  }

  @Test
  void derivedCertificatesServeBothSidesAndNameTheMember() {
    PeerTls tls = PeerTls.create("0123456789abcdef0123456789abcdef", SELF, Optional.empty());

    assertThat(tls.server().isServer()).isTrue();
    assertThat(tls.client().isClient()).isTrue();
    assertThat(tls.operatorCertificates()).as("derived certificates name the member, not its host").isFalse();
  }
}
