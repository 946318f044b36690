package dev.nacre.node.naming.http;

import dev.nacre.naming.model.InstanceKey;
import java.util.Optional;

/** Which member owns an ephemeral instance (accepted it and checks its health). Thread-safe. */
@FunctionalInterface
public interface InstanceOwners {
  /** The owner's address ({@code host:port}); empty for persistent or unknown instances. */
  Optional<String> ownerOf(InstanceKey key);
}
