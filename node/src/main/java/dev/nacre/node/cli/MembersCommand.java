package dev.nacre.node.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code nacre members [list|add|remove]}: the cluster's members, and growing or shrinking it. */
@Command(name = "members", description = "The cluster's members; subcommands list, add and remove.",
    subcommands = {MembersCommand.ListMembers.class, MembersCommand.Add.class, MembersCommand.Remove.class})
final class MembersCommand implements Callable<Integer> {
  static final String PATH = "/nacre/v1/cluster/members";
  /** A change waits for the new member to catch up (the node allows it 30 s or ten CP timeouts). */
  static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(75);

  @ParentCommand AdminCli parent;
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** Prints the member list of an answer, one a line, or the answer itself with --json. */
  abstract static class MembersSub extends AdminCli.Sub {
    int print(JsonNode body, String headline) {
      if (cli().json) {
        out().println(body.toPrettyString());
      } else {
        if (!headline.isEmpty()) {
          out().println(headline);
        }
        Table table = new Table("MEMBER");
        body.path("members").forEach(m -> table.row(m.asText()));
        table.print(out());
      }
      out().flush();
      return 0;
    }
  }

  @Command(name = "list", description = "The members as the node at --server knows them.")
  static final class ListMembers extends MembersSub {
    @Override
    public Integer call() {
      return print(http().json("GET", PATH, Map.of()), "");
    }
  }

  @Command(name = "add", description = "Adds the member HOST:PORT, which must already run (started with the"
      + " current members and itself in nacre.members); returns once the Raft group has it.")
  static final class Add extends MembersSub {
    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The new member's main port.")
    String member;

    @Override
    public Integer call() {
      JsonNode body = http(CHANGE_TIMEOUT).json("POST", PATH, Map.of("member", member));
      return print(body, member + " is a member; members now:");
    }
  }

  @Command(name = "remove", description = "Removes the member HOST:PORT from the Raft group and Distro;"
      + " stop its process afterwards (it refuses to serve once it learns it was removed).")
  static final class Remove extends MembersSub {
    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "The member's main port, as listed by 'members list'.")
    String member;

    @Override
    public Integer call() {
      JsonNode body = http(CHANGE_TIMEOUT).json("DELETE", PATH, Map.of("member", member));
      return print(body, member + " is no longer a member; members now:");
    }
  }
}
