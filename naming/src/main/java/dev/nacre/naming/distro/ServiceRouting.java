package dev.nacre.naming.distro;

import dev.nacre.consensus.distro.OwnershipMapper;
import dev.nacre.naming.model.ServiceKey;
import java.util.function.Function;

/**
 * Which member is responsible for a service's HTTP-registered ephemeral instances: the one that
 * should take their registrations and beats, check their health and replicate them. Hashes the
 * service (namespace, group, name), never the instance, so every instance of a service has one
 * responsible member. Pure functions; the answer changes only when the UP members change.
 */
public final class ServiceRouting {
  private ServiceRouting() {}

  /** The member responsible for {@code service} among the mapper's UP members. */
  public static String responsibleMember(OwnershipMapper mapper, ServiceKey service) {
    return mapper.ownerOf(DistroKeys.serviceKey(service));
  }

  /** As above, with any function from a service's hash key to a member id. */
  public static String responsibleMember(Function<String, String> mapper, ServiceKey service) {
    return mapper.apply(DistroKeys.serviceKey(service));
  }

  /** True when {@code memberId} should handle the service's writes and beats itself. */
  public static boolean isResponsible(OwnershipMapper mapper, String memberId, ServiceKey service) {
    return responsibleMember(mapper, service).equals(memberId);
  }
}
