package dev.nacre.node.client;

import java.util.Optional;

/** Whether a client request may read or write a namespace (client authentication, when on). */
@FunctionalInterface
public interface RequestAccess {
  /** Authentication off: everything passes. */
  RequestAccess OPEN = (token, namespace, write) -> Optional.empty();

  /**
   * @param accessToken the {@code accessToken} header of the request, if any
   * @param namespaceId the namespace the request reads or writes ("" for public)
   * @return why the request is refused, or empty when it may run
   */
  Optional<String> refusal(Optional<String> accessToken, String namespaceId, boolean write);
}
