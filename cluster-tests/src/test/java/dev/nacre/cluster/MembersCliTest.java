package dev.nacre.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.node.cli.AdminCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code scripts/nacre members list|add|remove} against real members: tables, JSON, clear errors. */
@Timeout(180)
class MembersCliTest {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = AdminCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void addsAndRemovesAMemberThroughAnyNode() throws Exception {
    try (LocalCluster c = LocalCluster.startGrowable(dir, 2, 3, Map.of())) {
      String first = c.address(0);
      String second = c.address(1);
      String third = c.address(2);
      Run list = run("--server", first, "members", "list");
      assertThat(list.exit()).as(list.err()).isZero();
      assertThat(list.out().lines()).containsExactly("MEMBER", first, second);

      c.setMembers(2, List.of(0, 1, 2));
      c.startNode(2);
      Run add = run("--server", second, "members", "add", third);
      assertThat(add.exit()).as(add.err()).isZero();
      assertThat(add.out()).contains(third + " is a member").contains(first).contains(second);
      c.awaitSettled();
      Run json = run("--server", third, "--json", "members", "list");
      assertThat(json.exit()).as(json.err()).isZero();
      assertThat(new ObjectMapper().readTree(json.out()).get("members")).hasSize(3);
      Run status = run("--server", first, "status");
      assertThat(status.out()).contains(third);

      Run again = run("--server", first, "members", "add", third);
      assertThat(again.exit()).as("adding a member twice changes nothing: " + again.err()).isZero();

      Run remove = run("--server", first, "members", "remove", third);
      assertThat(remove.exit()).as(remove.err()).isZero();
      assertThat(remove.out()).contains(third + " is no longer a member").doesNotContain(third + "\n");
      await().atMost(Duration.ofSeconds(20)).until(() -> c.node(2).readiness().notReadyReason().isPresent());
      c.stopNode(2);
      c.awaitSettled();
      assertThat(run("--server", second, "members", "list").out().lines()).containsExactly("MEMBER", first, second);

      Run stranger = run("--server", first, "members", "remove", "127.0.0.1:1999");
      assertThat(stranger.exit()).isEqualTo(1);
      assertThat(stranger.err()).contains("400").contains("127.0.0.1:1999 is not a member of this cluster");
      Run garbage = run("--server", first, "members", "add", "no-port");
      assertThat(garbage.exit()).isEqualTo(1);
      assertThat(garbage.err()).contains("400").contains("not host:port").doesNotContain("Exception");
      assertThat(run("--server", first, "members").exit()).as("no subcommand: usage").isEqualTo(2);
    }
  }
}
