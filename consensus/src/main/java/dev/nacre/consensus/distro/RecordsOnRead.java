package dev.nacre.consensus.distro;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * A fixed-size, read-only list whose i-th record is built when it is read (and again at each
 * read): a snapshot's listing encodes each record only when its sender takes it.
 */
public final class RecordsOnRead extends AbstractList<DistroRecord> implements RandomAccess {
  private final int size;
  private final IntFunction<DistroRecord> read;

  private RecordsOnRead(int size, IntFunction<DistroRecord> read) {
    this.size = size;
    this.read = read;
  }

  /** {@code size} records, the i-th given by {@code read.apply(i)} whenever it is read. */
  public static List<DistroRecord> of(int size, IntFunction<DistroRecord> read) {
    return new RecordsOnRead(size, read);
  }

  /** {@code first} then {@code second}, neither copied. */
  static List<DistroRecord> joined(List<DistroRecord> first, List<DistroRecord> second) {
    int split = first.size();
    return of(split + second.size(), i -> i < split ? first.get(i) : second.get(i - split));
  }

  @Override
  public DistroRecord get(int i) {
    return read.apply(Objects.checkIndex(i, size));
  }

  @Override
  public int size() {
    return size;
  }
}
