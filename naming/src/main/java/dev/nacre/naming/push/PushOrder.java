package dev.nacre.naming.push;

import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;

/**
 * One push the core wants sent. {@code seq} tells its completion apart from those of earlier or
 * replaced subscriptions.
 */
record PushOrder(
    ServiceKey service, String clientId, PushTarget target, ServiceView view, long seq, boolean forced) {}
