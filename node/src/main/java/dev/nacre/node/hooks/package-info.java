/**
 * Test hooks: the points where a fault-injecting harness reaches into a node, all set through
 * {@link dev.nacre.node.hooks.NodeHooks} when the node starts (a production node runs with
 * {@code NodeHooks.none()}, and every hook is then a no-op): a filter on calls arriving on the peer
 * port ({@code LinkFilter}), a gate in front of the client ports ({@code ClientGate}), and stalls of
 * the node's timers ({@code TimerStall}, {@code StallableScheduler}). The node's servers and
 * scheduler call them; nothing here decides anything on its own.
 */
package dev.nacre.node.hooks;
