package dev.nacre.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code scripts/nacre}: looks at and changes a running cluster through any node's HTTP Open API,
 * as an operator would with curl, with readable tables by default and the node's JSON with
 * {@code --json}.
 */
@Command(name = "nacre", mixinStandardHelpOptions = true, version = "Nacre admin 0.1.0",
    description = "Looks at and changes a running Nacre cluster through any of its nodes.",
    subcommands = {AdminCli.Status.class, AdminCli.Services.class, AdminCli.Instances.class,
        AdminCli.Offline.class, AdminCli.Online.class, AdminCli.LogLevel.class, AdminCli.Snapshot.class,
        AdminCli.Leader.class, MembersCommand.class, ConfigCommand.class})
public final class AdminCli {
  private static final String NS = "/nacos/v1/ns";
  /** Services fetched per page; a namespace holds at most 100,000 (nacre.naming.max-services-per-namespace). */
  private static final int PAGE = 1000;

  @Option(names = "--server", defaultValue = "127.0.0.1:8848", scope = ScopeType.INHERIT,
      description = "host:port (main port) of any node. Default ${DEFAULT-VALUE}.")
  String server;

  @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print the node's JSON instead of a table.")
  boolean json;

  /** Never an option: a password on the command line shows in every process list. */
  static final String PASSWORD_ENV = "NACRE_PASSWORD";

  @Option(names = "--username", scope = ScopeType.INHERIT, description = "Log in as this user (client"
      + " authentication on); the password comes from the environment variable " + PASSWORD_ENV + ".")
  String username;

  /** The login of --username, or null; the environment is read through {@code environment} (tests). */
  AdminHttp.Login login() {
    if (username == null || username.isEmpty()) {
      return null;
    }
    String password = environment.apply(PASSWORD_ENV);
    if (password == null || password.isEmpty()) {
      throw new AdminHttp.Failure("--username " + username + " needs the password in the environment variable "
          + PASSWORD_ENV + " (e.g. read -rs " + PASSWORD_ENV + "; export " + PASSWORD_ENV + ")", 2);
    }
    return new AdminHttp.Login(username, password);
  }

  private final java.util.function.UnaryOperator<String> environment;

  private AdminCli(java.util.function.UnaryOperator<String> environment) {
    this.environment = environment;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command with Nacre's error handling: a failed call prints its message, no stack trace. */
  public static CommandLine commandLine() {
    return commandLine(System::getenv);
  }

  /** As {@link #commandLine()}, reading environment variables from {@code environment}. */
  public static CommandLine commandLine(java.util.function.UnaryOperator<String> environment) {
    CommandLine cli = new CommandLine(new AdminCli(environment));
    cli.setExecutionExceptionHandler((e, line, parsed) -> {
      if (e instanceof AdminHttp.Failure f) {
        line.getErr().println("nacre: " + f.getMessage());
        line.getErr().flush();
        return f.exitCode;
      }
      throw e;
    });
    return cli;
  }

  /** What every subcommand shares: the parent's options, its output, the namespace and group. */
  abstract static class Sub implements Callable<Integer> {
    /** This tool's top command, or a command between it and this one (such as {@code leader}). */
    @ParentCommand Object parentCommand;
    @Spec CommandSpec spec;

    /** The top command, whose options ({@code --server}, {@code --json}) every subcommand inherits. */
    AdminCli cli() {
      return parentCommand instanceof Leader leader ? leader.parent
          : parentCommand instanceof MembersCommand members ? members.parent
          : parentCommand instanceof ConfigCommand config ? config.parent : (AdminCli) parentCommand;
    }

    AdminHttp http() {
      return http(AdminHttp.TIMEOUT);
    }

    /** For a call that may take longer than most. */
    AdminHttp http(java.time.Duration timeout) {
      return new AdminHttp(cli().server, timeout, cli().login());
    }

    PrintWriter out() {
      return spec.commandLine().getOut();
    }

    /** Prints the node's JSON as it came, or {@code table}. */
    int show(JsonNode body, Table table) {
      if (cli().json) {
        out().println(body.toPrettyString());
        out().flush();
      } else {
        table.print(out());
      }
      return 0;
    }
  }

  abstract static class InService extends Sub {
    @Option(names = "--namespace", defaultValue = "", description = "Namespace id. Default: public.")
    String namespace;

    @Option(names = "--group", defaultValue = "", description = "Group. Default: DEFAULT_GROUP.")
    String group;

    Map<String, String> scope() {
      Map<String, String> params = new LinkedHashMap<>();
      params.put("namespaceId", namespace);
      params.put("groupName", group);
      return params;
    }
  }

  @Command(name = "status", description = "Every member: state, Raft role, term, leader, commit and applied"
      + " index, apply stall, and the answering node's Distro queue to it.")
  static final class Status extends Sub {
    @Override
    public Integer call() {
      JsonNode body = http().json("GET", "/nacos/v1/core/cluster/nodes", Map.of());
      Table table = new Table("MEMBER", "STATE", "RAFT-ROLE", "TERM", "LEADER", "COMMIT", "APPLIED",
          "APPLY-STALLED-MS", "DISTRO-QUEUE");
      for (JsonNode m : body.path("data")) {
        JsonNode raft = m.path("extendInfo").path("raftMetaData");
        table.row(m.path("address").asText(), m.path("state").asText(), raft.path("role").asText(),
            raft.path("term").asLong(), raft.path("leader").asText(), orDash(raft.path("commitIndex")),
            orDash(raft.path("appliedIndex")), orDash(raft.path("applyStalledMs")),
            orDash(m.path("extendInfo").path("distroPendingKeys")));
      }
      return show(body, table);
    }
  }

  /** A number the node gave, or "-" where it knows none (a member that is down; itself for queues). */
  private static String orDash(JsonNode value) {
    return value.isNumber() ? value.asText() : "-";
  }

  @Command(name = "services", description = "The services of a namespace and group.")
  static final class Services extends InService {
    @Override
    public Integer call() {
      Table table = new Table("SERVICE");
      ArrayNode all = JsonNodeFactory.instance.arrayNode();
      long count = Long.MAX_VALUE;
      for (int page = 1; (long) (page - 1) * PAGE < count; page++) {
        Map<String, String> params = scope();
        params.put("pageNo", String.valueOf(page));
        params.put("pageSize", String.valueOf(PAGE));
        JsonNode body = http().json("GET", NS + "/service/list", params);
        count = body.path("count").asLong();
        body.path("doms").forEach(d -> {
          all.add(d);
          table.row(d.asText());
        });
        if (body.path("doms").isEmpty()) {
          break;
        }
      }
      return show(all, table);
    }
  }

  @Command(name = "instances", description = "Every instance of a service: healthy or not, online or offline.")
  static final class Instances extends InService {
    @Parameters(paramLabel = "SERVICE")
    String service;

    @Override
    public Integer call() {
      ArrayNode all = instances(this, service);
      Table table = new Table("ADDRESS", "CLUSTER", "HEALTHY", "ENABLED", "WEIGHT", "KIND", "METADATA");
      for (JsonNode h : all) {
        table.row(h.path("ip").asText() + ":" + h.path("port").asInt(), h.path("clusterName").asText(),
            h.path("healthy").asBoolean(), h.path("enabled").asBoolean(), h.path("weight").asDouble(),
            h.path("ephemeral").asBoolean() ? "ephemeral" : "persistent", h.path("metadata"));
      }
      return show(all, table);
    }
  }

  /** Every instance, offline ones included (the console's catalog; {@code /instance/list} leaves them out). */
  private static ArrayNode instances(InService command, String service) {
    ArrayNode all = JsonNodeFactory.instance.arrayNode();
    long count = Long.MAX_VALUE;
    for (int page = 1; (long) (page - 1) * PAGE < count; page++) {
      Map<String, String> params = command.scope();
      params.put("serviceName", service);
      params.put("pageNo", String.valueOf(page));
      params.put("pageSize", String.valueOf(PAGE));
      JsonNode body = command.http().json("GET", NS + "/catalog/instances", params);
      count = body.path("count").asLong();
      body.path("list").forEach(all::add);
      if (body.path("list").isEmpty()) {
        break;
      }
    }
    return all;
  }

  /** Takes an instance out of (or back into) query answers without touching its registration. */
  abstract static class Enabling extends InService {
    @Parameters(index = "0", paramLabel = "SERVICE")
    String service;

    @Parameters(index = "1", paramLabel = "IP:PORT")
    String address;

    int setEnabled(boolean enabled) {
      JsonNode host = null;
      for (JsonNode h : instances(this, service)) {
        if (address.equals(h.path("ip").asText() + ":" + h.path("port").asInt())) {
          host = h;
        }
      }
      if (host == null) {
        throw new AdminHttp.Failure("service " + service + " has no instance " + address
            + " (see: nacre instances " + service + ")", 1);
      }
      Map<String, String> params = scope();
      params.put("serviceName", service);
      params.put("ip", host.path("ip").asText());
      params.put("port", host.path("port").asText());
      params.put("clusterName", host.path("clusterName").asText());
      params.put("ephemeral", host.path("ephemeral").asText());
      params.put("enabled", String.valueOf(enabled));
      String answer = http().call("PATCH", NS + "/instance", params);
      out().println(cli().json ? answer : address + " of " + service + " is " + (enabled ? "online" : "offline")
          + " (enabled=" + enabled + ")");
      out().flush();
      return 0;
    }
  }

  @Command(name = "offline", description = "Stops a service's instance from being returned to queries (enabled=false).")
  static final class Offline extends Enabling {
    @Override
    public Integer call() {
      return setEnabled(false);
    }
  }

  @Command(name = "online", description = "Returns an instance taken offline to queries (enabled=true).")
  static final class Online extends Enabling {
    @Override
    public Integer call() {
      return setEnabled(true);
    }
  }

  @Command(name = "log-level", description = "Sets a logger's level on the node given by --server.")
  static final class LogLevel extends Sub {
    @Parameters(index = "0", paramLabel = "LOGGER", description = "A Nacos log name or a class or package of the server.")
    String logger;

    @Parameters(index = "1", paramLabel = "LEVEL", description = "TRACE, DEBUG, INFO, WARN, ERROR or OFF.")
    String level;

    @Override
    public Integer call() {
      String answer = http().call("PUT", NS + "/operator/log", Map.of("logName", logger, "logLevel", level));
      out().println(cli().json ? answer : logger + " logs at " + level + " on " + cli().server);
      out().flush();
      return 0;
    }
  }

  @Command(name = "snapshot", description = "Has the member at --server write a Raft snapshot now; prints its log index.")
  static final class Snapshot extends Sub {
    @Override
    public Integer call() {
      JsonNode body = http().json("POST", "/nacre/v1/raft/snapshot", Map.of());
      Table table = new Table("MEMBER", "SNAPSHOT-INDEX");
      table.row(body.path("member").asText(), body.path("snapshotIndex").asLong());
      return show(body, table);
    }
  }

  @Command(name = "leader", description = "Raft leadership; see its subcommand transfer.",
      subcommands = AdminCli.LeaderTransfer.class)
  static final class Leader implements Callable<Integer> {
    @ParentCommand AdminCli parent;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
      spec.commandLine().usage(spec.commandLine().getErr());
      return 2;
    }
  }

  @Command(name = "transfer", description = "Hands Raft leadership to the member HOST:PORT and waits until it leads.")
  static final class LeaderTransfer extends Sub {
    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The member's main port, as in nacre.members.")
    String member;

    @Override
    public Integer call() {
      JsonNode body = http().json("POST", "/nacre/v1/raft/leader", Map.of("member", member));
      out().println(cli().json ? body.toPrettyString() : body.path("leader").asText() + " leads the Raft group");
      out().flush();
      return 0;
    }
  }
}
