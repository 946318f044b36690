package dev.nacre.cluster.check;

import java.util.Objects;

/**
 * One instance of one service: the unit the registry model holds a value for. A service-wide read
 * uses {@link #wholeService(String)}, whose instance is the empty string.
 */
public record InstanceKey(String service, String instance) implements Comparable<InstanceKey> {

    public InstanceKey {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(instance, "instance");
    }

    public static InstanceKey of(String service, String instance) {
        if (instance.isEmpty()) {
            throw new IllegalArgumentException("instance address must not be empty; use wholeService()");
        }
        return new InstanceKey(service, instance);
    }

    public static InstanceKey wholeService(String service) {
        return new InstanceKey(service, "");
    }

    public boolean isWholeService() {
        return instance.isEmpty();
    }

    @Override
    public int compareTo(InstanceKey o) {
        int c = service.compareTo(o.service);
        return c != 0 ? c : instance.compareTo(o.instance);
    }

    @Override
    public String toString() {
        return isWholeService() ? service + "/*" : service + "/" + instance;
    }
}
