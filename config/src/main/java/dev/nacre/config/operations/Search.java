package dev.nacre.config.operations;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.Page;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Nacos' configuration search over the formal contents of one namespace, ordered by group then
 * dataId so that pages are stable. Accurate: each non-empty criterion must be equal. Blur: dataId,
 * group and appName are patterns where {@code *} is any text. Tags in both: the item must carry
 * one of the comma-separated tags (blur: one matching one of the patterns).
 */
final class Search {
  private Search() {}

  static Page<ConfigItem> page(Collection<ConfigItem> formals, String namespace, String dataId, String group,
      String appName, String tags, boolean blur, int pageNo, int pageSize) {
    String ns = ConfigKey.normalizeNamespace(namespace);
    Predicate<ConfigItem> match = i -> i.key().namespace().equals(ns);
    match = match.and(field(dataId, blur, i -> i.key().dataId()));
    match = match.and(field(group, blur, i -> i.key().group()));
    match = match.and(field(appName, blur, ConfigItem::appName));
    if (tags != null && !tags.isBlank()) {
      List<Predicate<String>> wanted = Arrays.stream(tags.split(",")).map(String::trim).filter(t -> !t.isEmpty())
          .map(t -> matcher(t, blur)).toList();
      match = match.and(i -> Arrays.stream(i.tags().split(",")).map(String::trim)
          .anyMatch(t -> wanted.stream().anyMatch(w -> w.test(t))));
    }
    List<ConfigItem> all = formals.stream().filter(match)
        .sorted(Comparator.comparing((ConfigItem i) -> i.key().group()).thenComparing(i -> i.key().dataId()))
        .toList();
    int from = (int) Math.min(all.size(), (long) (pageNo - 1) * pageSize);
    int to = Math.min(all.size(), from + pageSize);
    return new Page<>(all.size(), pageNo, (all.size() + pageSize - 1) / pageSize, List.copyOf(all.subList(from, to)));
  }

  private static Predicate<ConfigItem> field(String wanted, boolean blur,
      java.util.function.Function<ConfigItem, String> value) {
    if (wanted == null || wanted.isEmpty()) {
      return i -> true;
    }
    Predicate<String> m = matcher(wanted, blur);
    return i -> m.test(value.apply(i));
  }

  private static Predicate<String> matcher(String wanted, boolean blur) {
    if (!blur || !wanted.contains("*")) {
      return wanted::equals;
    }
    String regex = Arrays.stream(wanted.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*"));
    Pattern p = Pattern.compile(regex);
    return s -> p.matcher(s).matches();
  }
}
