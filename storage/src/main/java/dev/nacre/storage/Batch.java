package dev.nacre.storage;

import java.util.ArrayList;
import java.util.Arrays;
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

  /** Appends every mutation of {@code other}, after this batch's own. */
  public Batch addAll(Batch other) {
    mutations.addAll(other.mutations);
    return this;
  }

  /** The last mutation of {@code key} in {@code family}, or {@code null} when the batch does not touch it. */
  Mutation latest(String family, byte[] key) {
    for (int i = mutations.size() - 1; i >= 0; i--) {
      Mutation m = mutations.get(i);
      if (m.family().equals(family) && Arrays.equals(m.key(), key)) {
        return m;
      }
    }
    return null;
  }

  public boolean isEmpty() {
    return mutations.isEmpty();
  }

  List<Mutation> mutations() {
    return mutations;
  }
}
