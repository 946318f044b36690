package dev.nacre.cluster.check;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Generates linearizable CP histories: clients issue operations with random, overlapping real-time
 * intervals; each operation takes effect atomically at a random point inside its interval (an
 * UNKNOWN write at a random later point, or never), and reads return the single model's state at
 * their point. Register values are unique, so a stale value can be injected unambiguously.
 */
final class RegistrySimulator {
    private final Random random;
    private final int clients;
    private final int opsPerClient;
    private final int services;
    private final int instancesPerService;
    private final double unknownWriteRate;
    private final double serviceReadRate;

    RegistrySimulator(long seed, int clients, int opsPerClient, int services, int instancesPerService,
                      double unknownWriteRate, double serviceReadRate) {
        this.random = new Random(seed);
        this.clients = clients;
        this.opsPerClient = opsPerClient;
        this.services = services;
        this.instancesPerService = instancesPerService;
        this.unknownWriteRate = unknownWriteRate;
        this.serviceReadRate = serviceReadRate;
    }

    private record Planned(long id, int process, OpKind kind, InstanceKey key, Optional<String> arg,
                           long invoke, long complete, long effectAt, Outcome outcome) {
    }

    private Map<InstanceKey, String> finalState = Map.of();

    /** The model after every effect of the last {@link #generate()}, late UNKNOWN writes included. */
    Map<InstanceKey, String> finalState() {
        return finalState;
    }

    History generate() {
        List<Planned> planned = new ArrayList<>();
        long id = 0;
        for (int c = 0; c < clients; c++) {
            long t = random.nextInt(1_000);
            for (int i = 0; i < opsPerClient; i++) {
                String service = "svc" + random.nextInt(services);
                InstanceKey key = InstanceKey.of(service, "127.0.0." + random.nextInt(instancesPerService) + ":8080");
                long dur = 1 + random.nextInt(2_000);
                long invoke = t;
                long complete = t + dur;
                long effectAt = invoke + (long) (random.nextDouble() * dur);
                double r = random.nextDouble();
                OpKind kind;
                if (r < serviceReadRate) {
                    kind = OpKind.READ_SERVICE;
                    key = InstanceKey.wholeService(service);
                } else if (r < 0.40) {
                    kind = OpKind.READ;
                } else if (r < 0.80) {
                    kind = OpKind.REGISTER;
                } else {
                    kind = OpKind.DEREGISTER;
                }
                Outcome outcome = Outcome.OK;
                if (kind.isWrite() && random.nextDouble() < unknownWriteRate) {
                    outcome = Outcome.UNKNOWN;
                    // Applied late (after the client gave up) or not at all.
                    effectAt = random.nextBoolean() ? invoke + (long) (random.nextDouble() * 20_000) : Long.MAX_VALUE;
                }
                Optional<String> arg = kind == OpKind.REGISTER ? Optional.of("v" + id) : Optional.empty();
                planned.add(new Planned(id++, c, kind, key, arg, invoke, complete, effectAt, outcome));
                t = complete + random.nextInt(500);
            }
        }
        planned.sort(Comparator.comparingLong(Planned::effectAt).thenComparingLong(Planned::id));
        Map<InstanceKey, String> model = new HashMap<>();
        List<Op> ops = new ArrayList<>();
        for (Planned p : planned) {
            Optional<String> value = p.arg();
            Map<String, String> view = Map.of();
            if (p.effectAt() != Long.MAX_VALUE) {
                switch (p.kind()) {
                    case REGISTER -> model.put(p.key(), p.arg().orElseThrow());
                    case DEREGISTER -> model.remove(p.key());
                    case READ -> value = Optional.ofNullable(model.get(p.key()));
                    case READ_SERVICE -> view = viewOf(model, p.key().service());
                }
            }
            ops.add(new Op(p.id(), p.process(), "n" + (p.process() % 3), p.kind(), Mode.CP, p.key(), value, view,
                    p.invoke(), p.complete(), p.outcome(), ""));
        }
        finalState = Map.copyOf(model);
        return new History(ops);
    }

    private static Map<String, String> viewOf(Map<InstanceKey, String> model, String service) {
        Map<String, String> view = new TreeMap<>();
        model.forEach((k, v) -> {
            if (k.service().equals(service)) {
                view.put(k.instance(), v);
            }
        });
        return view;
    }

    /** The injected violation: which read now returns which stale value. */
    record Injected(History history, Op original, Op stale) {
    }

    /**
     * Replaces one READ's value with a value that was overwritten (by an OK write that completed
     * before the read began) after the OK register that wrote it completed: no linearization can
     * return it. Empty if the history has no such read.
     */
    Optional<Injected> injectStaleRead(History h) {
        Map<InstanceKey, List<Op>> byKey = h.byInstance();
        List<Op[]> candidates = new ArrayList<>();
        for (List<Op> ops : byKey.values()) {
            List<Op> okWrites = ops.stream().filter(o -> o.kind().isWrite() && o.outcome() == Outcome.OK).toList();
            for (Op read : ops) {
                if (read.kind() != OpKind.READ || read.outcome() != Outcome.OK) {
                    continue;
                }
                for (Op w : okWrites) {
                    if (w.kind() != OpKind.REGISTER || !w.precedes(read)) {
                        continue;
                    }
                    boolean overwritten = okWrites.stream().anyMatch(w2 -> w.precedes(w2) && w2.precedes(read));
                    if (overwritten) {
                        candidates.add(new Op[] {read, w});
                    }
                }
            }
        }
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        Op[] pick = candidates.get(random.nextInt(candidates.size()));
        Op read = pick[0];
        Op stale = new Op(read.id(), read.process(), read.node(), read.kind(), read.mode(), read.key(),
                pick[1].value(), read.view(), read.invokeNanos(), read.completeNanos(), read.outcome(), "injected");
        List<Op> ops = new ArrayList<>(h.ops());
        ops.replaceAll(o -> o.id() == read.id() ? stale : o);
        return Optional.of(new Injected(new History(ops), read, stale));
    }
}
