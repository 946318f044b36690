package dev.nacre.naming.model;

/** How many services (that exist) and instances of each kind the registry holds. */
public record RegistryCounts(int services, int ephemeralInstances, int persistentInstances) {
  public int instances() {
    return ephemeralInstances + persistentInstances;
  }
}
