package dev.nacre.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code nacre config get|put|delete|history|listeners|list}: configurations through Nacos' v1
 * configuration API ({@code /nacos/v1/cs/configs}, {@code /history}, {@code /configs/listener}).
 */
@Command(name = "config", description = "Configurations; subcommands get, put, delete, history, listeners and list.",
    subcommands = {ConfigCommand.Get.class, ConfigCommand.Put.class, ConfigCommand.Delete.class,
        ConfigCommand.History.class, ConfigCommand.Listeners.class, ConfigCommand.ListConfigs.class})
final class ConfigCommand implements Callable<Integer> {
  static final String CONFIGS = "/nacos/v1/cs/configs";
  static final String HISTORY = "/nacos/v1/cs/history";
  static final String LISTENERS = "/nacos/v1/cs/configs/listener";
  /** Revisions shown by {@code history}: the newest page. */
  static final int HISTORY_PAGE = 100;
  /** Configurations fetched per page by {@code list}. */
  static final int LIST_PAGE = 500;

  @ParentCommand AdminCli parent;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** What every config subcommand shares: the namespace. */
  abstract static class InNamespace extends AdminCli.Sub {
    @Option(names = "--namespace", defaultValue = "", description = "Namespace id. Default: public.")
    String namespace;

    /** Nacos' tenant: the public namespace is the empty one. */
    String tenant() {
      return "public".equals(namespace) ? "" : namespace;
    }

    String namespaceName() {
      return tenant().isEmpty() ? "public" : namespace;
    }

    void println(String line) {
      out().println(line);
      out().flush();
    }
  }

  /** A subcommand about one configuration: DATAID and --group. */
  abstract static class OneConfig extends InNamespace {
    @Parameters(index = "0", paramLabel = "DATAID")
    String dataId;

    @Option(names = "--group", defaultValue = "DEFAULT_GROUP", description = "Group. Default: ${DEFAULT-VALUE}.")
    String group;

    Map<String, String> key() {
      Map<String, String> params = new LinkedHashMap<>();
      params.put("dataId", dataId);
      params.put("group", group);
      params.put("tenant", tenant());
      return params;
    }

    String describe() {
      return dataId + " in group " + group + " of namespace " + namespaceName();
    }

    /** A 404 of the node said as the operator asked it. */
    AdminHttp.Failure absent() {
      return new AdminHttp.Failure("no configuration " + describe() + " (see: nacre config list"
          + (tenant().isEmpty() ? "" : " --namespace " + namespace) + ")", 1, 404);
    }

    /** The call, with a 404 turned into {@link #absent()}. */
    String call(String method, String path, Map<String, String> params) {
      try {
        return http().call(method, path, params);
      } catch (AdminHttp.Failure f) {
        throw f.status == 404 ? absent() : f;
      }
    }
  }

  @Command(name = "get", description = "Prints a configuration's content as stored (with --json: its details).")
  static final class Get extends OneConfig {
    @Override
    public Integer call() {
      if (cli().json) {
        Map<String, String> params = key();
        params.put("show", "all");
        String body = call("GET", CONFIGS, params);
        if (body.isBlank() || body.strip().equals("null")) { // Nacos' answer for none
          throw absent();
        }
        println(body);
      } else {
        String content = call("GET", CONFIGS, key());
        out().print(content);
        if (!content.endsWith("\n")) {
          out().println();
        }
        out().flush();
      }
      return 0;
    }
  }

  /** Exactly one source of the content. */
  static final class Content {
    @Option(names = "--file", paramLabel = "FILE", description = "Publish this file's content (UTF-8).")
    Path file;

    @Option(names = "--content", paramLabel = "TEXT", description = "Publish this text.")
    String text;
  }

  @Command(name = "put", description = "Publishes a configuration's content (creates or replaces it).")
  static final class Put extends OneConfig {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Content content;

    @Option(names = "--type", defaultValue = "text",
        description = "text, json, yaml, properties, xml or html. Default: ${DEFAULT-VALUE}.")
    String type;

    @Override
    public Integer call() {
      String text = read();
      if (text.isBlank()) {
        throw new AdminHttp.Failure("the content is empty: Nacos publishes no empty configuration"
            + " (to remove one: nacre config delete " + dataId + ")", 2);
      }
      Map<String, String> params = key();
      params.put("content", text);
      params.put("type", type);
      String answer = http().callWithForm("POST", CONFIGS, params);
      if (!answer.strip().equals("true")) {
        throw new AdminHttp.Failure("publishing " + describe() + " was not accepted: " + answer.strip(), 1);
      }
      println(cli().json ? answer.strip() : "published " + describe() + " (" + text.length() + " characters, "
          + type + ")");
      return 0;
    }

    private String read() {
      if (content.file == null) {
        return content.text;
      }
      try {
        return Files.readString(content.file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new AdminHttp.Failure("cannot read " + content.file + ": " + e.getMessage(), 2);
      }
    }
  }

  @Command(name = "delete", description = "Deletes a configuration (its history stays).")
  static final class Delete extends OneConfig {
    @Override
    public Integer call() {
      call("GET", CONFIGS, key()); // Nacos answers true for a delete of nothing: say that it is absent
      String answer = call("DELETE", CONFIGS, key());
      println(cli().json ? answer.strip() : "deleted " + describe());
      return 0;
    }
  }

  @Command(name = "history", description = "A configuration's revisions, newest first: id, operation, md5, user,"
      + " address, time.")
  static final class History extends OneConfig {
    @Override
    public Integer call() {
      Map<String, String> params = key();
      params.put("search", "accurate");
      params.put("pageNo", "1");
      params.put("pageSize", String.valueOf(HISTORY_PAGE));
      JsonNode body = http().json("GET", HISTORY, params);
      Table table = new Table("ID", "OP", "MD5", "USER", "IP", "TIME");
      List<JsonNode> revisions = new ArrayList<>();
      body.path("pageItems").forEach(revisions::add);
      // Newest first, whatever order the node answered in (ids are numbers, sent as strings).
      revisions.sort(Comparator.comparingLong((JsonNode r) -> r.path("id").asLong()).reversed());
      for (JsonNode r : revisions) {
        table.row(r.path("id").asText(), operation(r.path("opType").asText()), text(r.path("md5")),
            text(r.path("srcUser")), text(r.path("srcIp")),
            time(r.has("lastModifiedTime") ? r.path("lastModifiedTime") : r.path("createdTime")));
      }
      if (table.size() == 0 && !cli().json) {
        throw new AdminHttp.Failure("no revisions of " + describe(), 1, 404);
      }
      return show(body, table);
    }
  }

  /** Nacos' op types, in words. */
  static String operation(String opType) {
    return switch (opType.strip()) {
      case "I" -> "insert";
      case "U" -> "update";
      case "D" -> "delete";
      default -> opType;
    };
  }

  /** A field's text, "-" when absent or null (Nacos' history pages leave md5 out). */
  static String text(JsonNode value) {
    return value.isMissingNode() || value.isNull() || value.asText().isEmpty() ? "-" : value.asText();
  }

  /** A time as Nacos sends it: epoch milliseconds, or a formatted string kept as it is. */
  static String time(JsonNode t) {
    if (t.isNumber() || t.asText().matches("\\d+")) {
      return Instant.ofEpochMilli(t.asLong()).toString();
    }
    return t.isMissingNode() || t.isNull() ? "-" : t.asText();
  }

  @Command(name = "listeners", description = "The clients listening to a configuration, with the md5 each holds.")
  static final class Listeners extends OneConfig {
    @Override
    public Integer call() {
      JsonNode body = http().json("GET", LISTENERS, key());
      Table table = new Table("CLIENT", "MD5");
      // Nacos spells it so.
      body.path("lisentersGroupkeyStatus").fields().forEachRemaining(e -> table.row(e.getKey(), e.getValue().asText()));
      if (table.size() == 0 && !cli().json) {
        println("no client listens to " + describe());
        return 0;
      }
      return show(body, table);
    }
  }

  @Command(name = "list", description = "The configurations of a namespace, optionally only those whose data id"
      + " and group match.")
  static final class ListConfigs extends InNamespace {
    @Option(names = "--search", defaultValue = "accurate", description = "accurate (the default) or blur: the"
        + " data id and group hold * wildcards, or match anywhere when they hold none.")
    String search;

    @Option(names = "--data-id", defaultValue = "", paramLabel = "PATTERN", description = "Data id (or pattern).")
    String dataId;

    @Option(names = "--group", defaultValue = "", paramLabel = "GROUP", description = "Group (or pattern).")
    String group;

    @Override
    public Integer call() {
      if (!search.equals("accurate") && !search.equals("blur")) {
        throw new AdminHttp.Failure("--search is accurate or blur, not " + search, 2);
      }
      boolean blur = search.equals("blur");
      ArrayNode all = JsonNodeFactory.instance.arrayNode();
      Table table = new Table("DATA-ID", "GROUP", "TYPE", "MD5", "APP");
      long total = Long.MAX_VALUE;
      for (int page = 1; (long) (page - 1) * LIST_PAGE < total; page++) {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("search", search);
        params.put("dataId", blur ? pattern(dataId) : dataId);
        params.put("group", blur ? pattern(group) : group);
        params.put("tenant", tenant());
        params.put("pageNo", String.valueOf(page));
        params.put("pageSize", String.valueOf(LIST_PAGE));
        JsonNode body = http().jsonKeepingEmpty("GET", CONFIGS, params);
        total = body.path("totalCount").asLong();
        for (JsonNode c : body.path("pageItems")) {
          all.add(c);
          table.row(c.path("dataId").asText(), c.path("group").asText(), c.path("type").asText("text"),
              c.path("md5").asText(), c.path("appName").asText());
        }
        if (body.path("pageItems").isEmpty()) {
          break;
        }
      }
      return show(all, table);
    }

    /** A fragment without * matches anywhere, as the console does. */
    private static String pattern(String s) {
      return s.isEmpty() || s.contains("*") ? s : "*" + s + "*";
    }
  }
}
