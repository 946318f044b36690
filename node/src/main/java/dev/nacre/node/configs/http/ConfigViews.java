package dev.nacre.node.configs.http;

import dev.nacre.config.api.ConfigItem;
import dev.nacre.config.api.Page;
import dev.nacre.config.api.Revision;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Configurations and revisions in the JSON shapes of Nacos' answers (field names and order of its
 * ConfigInfo, ConfigAllInfo, ConfigInfo4Beta, ConfigHistoryInfo and Page). Ids are strings, as
 * Nacos writes them (they exceed JavaScript's integers); times of history entries are ISO-8601.
 */
final class ConfigViews {
  private static final DateTimeFormatter ISO =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  private ConfigViews() {}

  /** A search result's item (Nacos' ConfigInfo). */
  static Map<String, Object> info(ConfigItem c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(c.revision()));
    m.put("dataId", c.key().dataId());
    m.put("group", c.key().group());
    m.put("content", c.content());
    m.put("md5", c.md5());
    m.put("encryptedDataKey", c.encryptedDataKey());
    m.put("tenant", c.key().namespace());
    m.put("appName", c.appName());
    m.put("type", c.type());
    return m;
  }

  /** {@code show=all} (Nacos' ConfigAllInfo). */
  static Map<String, Object> detail(ConfigItem c) {
    Map<String, Object> m = info(c);
    m.put("createTime", c.createdMillis());
    m.put("modifyTime", c.modifiedMillis());
    m.put("createUser", c.creator());
    m.put("createIp", c.sourceIp());
    m.put("desc", c.desc());
    m.put("use", null);
    m.put("effect", null);
    m.put("schema", null);
    m.put("configTags", c.tags().isEmpty() ? null : c.tags());
    return m;
  }

  /** The beta content (Nacos' ConfigInfo4Beta). */
  static Map<String, Object> beta(ConfigItem c) {
    Map<String, Object> m = info(c);
    m.put("betaIps", c.betaIps());
    return m;
  }

  /** What {@code /history/configs} lists (Nacos' ConfigInfoWrapper, without content). */
  static Map<String, Object> listed(ConfigItem c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(c.revision()));
    m.put("dataId", c.key().dataId());
    m.put("group", c.key().group());
    m.put("content", null);
    m.put("md5", null);
    m.put("encryptedDataKey", null);
    m.put("tenant", c.key().namespace());
    m.put("appName", c.appName());
    m.put("type", c.type());
    m.put("lastModified", c.modifiedMillis());
    return m;
  }

  /** A history entry (Nacos' ConfigHistoryInfo); a list leaves content and md5 out, as Nacos does. */
  static Map<String, Object> revision(Revision r, boolean withContent) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(r.id()));
    m.put("lastId", -1);
    m.put("dataId", r.key().dataId());
    m.put("group", r.key().group());
    m.put("tenant", r.key().namespace());
    m.put("appName", r.appName());
    m.put("md5", withContent ? r.md5() : null);
    m.put("content", withContent ? r.content() : null);
    m.put("srcIp", r.sourceIp());
    m.put("srcUser", r.user());
    m.put("opType", r.operation());
    m.put("publishType", r.publishType());
    m.put("grayName", r.tag().isEmpty() ? null : r.tag());
    m.put("extInfo", null);
    m.put("type", r.type());
    m.put("createdTime", ISO.format(Instant.ofEpochMilli(r.createdMillis())));
    m.put("lastModifiedTime", ISO.format(Instant.ofEpochMilli(r.modifiedMillis())));
    m.put("encryptedDataKey", withContent ? r.encryptedDataKey() : null);
    return m;
  }

  static <T> Map<String, Object> page(Page<T> page, Function<T, Map<String, Object>> item) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("totalCount", page.totalCount());
    m.put("pageNumber", page.pageNumber());
    m.put("pagesAvailable", page.pagesAvailable());
    List<Map<String, Object>> items = page.pageItems().stream().map(item).toList();
    m.put("pageItems", items);
    return m;
  }
}
