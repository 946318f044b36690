package dev.nacre.storage;

import java.util.ArrayList;
import java.util.List;

/** Puts and deletes that {@link RocksStore#commit} applies atomically, in order. Not thread-safe. */
public final class Batch {
  record Mutation(String family, byte[] key, byte[] value) {
    boolean isDelete() {
      return value == null;
    }
  }

  private final List<Mutation> mutations = new ArrayList<>();

  public Batch put(String family, byte[] key, byte[] value) {
    mutations.add(new Mutation(family, key.clone(), value.clone()));
    return this;
  }

  public Batch delete(String family, byte[] key) {
    mutations.add(new Mutation(family, key.clone(), null));
    return this;
  }

  public boolean isEmpty() {
    return mutations.isEmpty();
  }

  List<Mutation> mutations() {
    return mutations;
  }
}
