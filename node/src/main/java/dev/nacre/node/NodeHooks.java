package dev.nacre.node;

import dev.nacre.node.cluster.LinkFilter;
import java.util.Optional;

/**
 * Extension points for test harnesses; production starts nodes with {@link #none()}, which
 * changes nothing.
 *
 * @param linkFilter consulted for every call arriving on the peer port (Distro, pings,
 *     forwarding); absent in production
 */
public record NodeHooks(Optional<LinkFilter> linkFilter) {
  public NodeHooks {
    java.util.Objects.requireNonNull(linkFilter, "linkFilter");
  }

  public static NodeHooks none() {
    return new NodeHooks(Optional.empty());
  }

  public static NodeHooks withLinkFilter(LinkFilter filter) {
    return new NodeHooks(Optional.of(filter));
  }
}
