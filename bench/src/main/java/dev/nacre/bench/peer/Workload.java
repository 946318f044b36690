package dev.nacre.bench.peer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which instances each client writes and which services it reads. Client c's j-th registration of
 * a series goes to service {@code <prefix>-<kind>-s<j>}, so a service gets one instance per client
 * (nacos-client keeps one ephemeral instance per service per connection) and no two clients write
 * the same name. Rounds reuse the names: every series removes what it wrote.
 */
final class Workload {
  /** Services that the sustained persistent series cycles over (health checker NONE on Nacre). */
  static final int SUSTAINED_SERVICES = 64;
  private final String prefix;
  private final int clients;
  private final int queryServices;
  private final int perQueryService;

  Workload(String prefix, int clients, int queryServices, int perQueryService) {
    this.prefix = prefix;
    this.clients = clients;
    this.queryServices = queryServices;
    this.perQueryService = perQueryService;
  }

  /** {@code total} registrations split over the clients (client c gets items i with i % clients == c). */
  List<List<Instance>> registrations(String kind, int total, boolean ephemeral) {
    List<List<Instance>> work = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      List<Instance> mine = new ArrayList<>();
      for (int j = 0; c + j * clients < total; j++) {
        mine.add(new Instance(prefix + "-" + kind + "-s" + j, "127.77." + c + ".1", 20000 + j, ephemeral));
      }
      work.add(mine);
    }
    return work;
  }

  /** Each client's items that are in {@code kept}, in order. */
  static <T> List<List<T>> only(List<List<T>> work, Set<T> kept) {
    List<List<T>> part = new ArrayList<>();
    for (List<T> mine : work) {
      part.add(mine.stream().filter(kept::contains).toList());
    }
    return part;
  }

  static Set<String> services(List<List<Instance>> work) {
    Set<String> services = new LinkedHashSet<>();
    work.forEach(mine -> mine.forEach(i -> services.add(i.service())));
    return services;
  }

  /** The read set: {@code queryServices} persistent services of {@code perQueryService} instances. */
  List<List<Instance>> querySet() {
    List<List<Instance>> work = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      work.add(new ArrayList<>());
    }
    int n = 0;
    for (int s = 0; s < queryServices; s++) {
      for (int k = 0; k < perQueryService; k++) {
        work.get(n++ % clients).add(new Instance(queryService(s), "127.79." + s % 250 + "." + (k + 1), 20000 + k, false));
      }
    }
    return work;
  }

  int perQueryService() {
    return perQueryService;
  }

  /** The service client c reads in its n-th query: the clients spread over the read set. */
  String queryService(int client, long n) {
    return queryService((int) ((client + n * 7) % queryServices));
  }

  private String queryService(int s) {
    return prefix + "-q-s" + s;
  }

  List<String> sustainedServices() {
    List<String> services = new ArrayList<>();
    for (int s = 0; s < SUSTAINED_SERVICES; s++) {
      services.add(prefix + "-sp-s" + s);
    }
    return services;
  }

  /** Client c's n-th persistent registration of the sustained series (never removed). */
  Instance sustained(int client, long n) {
    long slot = n / SUSTAINED_SERVICES;
    return new Instance(prefix + "-sp-s" + n % SUSTAINED_SERVICES,
        "127.78." + client + "." + (1 + slot / 40000), (int) (20000 + slot % 40000), false);
  }
}
