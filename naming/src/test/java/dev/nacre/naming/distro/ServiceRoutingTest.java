package dev.nacre.naming.distro;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.distro.OwnershipMapper;
import dev.nacre.naming.model.ServiceKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ServiceRoutingTest {
  final OwnershipMapper mapper = new OwnershipMapper(List.of("a:8848", "b:8858", "c:8868"));

  @Test
  void hashesTheServiceNotTheInstance() {
    ServiceKey orders = new ServiceKey("public", "DEFAULT_GROUP", "orders");
    assertThat(ServiceRouting.responsibleMember(mapper, orders))
        .isEqualTo(mapper.ownerOf(DistroKeys.serviceKey(orders)))
        .isEqualTo(ServiceRouting.responsibleMember(mapper::ownerOf, orders));
    assertThat(ServiceRouting.isResponsible(mapper, ServiceRouting.responsibleMember(mapper, orders), orders))
        .isTrue();
  }

  @Test
  void servicesSpreadOverMembersAndMoveOnlyFromALostMember() {
    Map<String, Integer> perMember = new HashMap<>();
    OwnershipMapper withoutC = new OwnershipMapper(List.of("a:8848", "b:8858"));
    for (int i = 0; i < 300; i++) {
      ServiceKey s = new ServiceKey("public", "DEFAULT_GROUP", "svc-" + i);
      String before = ServiceRouting.responsibleMember(mapper, s);
      perMember.merge(before, 1, Integer::sum);
      if (!before.equals("c:8868")) {
        assertThat(ServiceRouting.responsibleMember(withoutC, s)).as("service %s stays", s).isEqualTo(before);
      }
    }
    assertThat(perMember).containsOnlyKeys("a:8848", "b:8858", "c:8868");
    assertThat(perMember.values()).allSatisfy(n -> assertThat(n).isGreaterThan(50));
  }

  @Test
  void namespaceAndGroupTakePart() {
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < 60; i++) {
      seen.merge(ServiceRouting.responsibleMember(mapper, new ServiceKey("ns-" + i, "G", "orders")), 1, Integer::sum);
    }
    assertThat(seen).as("one service name in many namespaces lands on several members").hasSizeGreaterThan(1);
  }
}
