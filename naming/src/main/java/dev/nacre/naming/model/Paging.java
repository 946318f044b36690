package dev.nacre.naming.model;

import java.util.List;

/** Nacos' paging of a listing: {@code pageNo} counts from 1, {@code pageSize} items a page. */
public final class Paging {
  /** The largest page a catalog listing serves (services, instances), as in Nacos. */
  public static final int MAX_PAGE_SIZE = 10_000;

  private Paging() {}

  /** The items of page {@code pageNo} (1 or more) of {@code pageSize} (1 or more); empty past the end. */
  public static <T> List<T> page(List<T> all, int pageNo, int pageSize) {
    long from = Math.min(all.size(), (long) (pageNo - 1) * pageSize);
    long to = Math.min(all.size(), from + pageSize);
    return all.subList((int) from, (int) to);
  }
}
