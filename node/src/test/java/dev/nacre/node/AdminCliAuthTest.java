package dev.nacre.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.node.cli.AdminCli;
import dev.nacre.node.config.AuthSettings;
import dev.nacre.node.testkit.Http;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code scripts/nacre} against a real node with client authentication on: the administrator logs
 * in with --username and the password from the environment; without them, the refusal says what
 * to give. Also the members commands on a standalone node.
 */
@Timeout(60)
class AdminCliAuthTest {
  private static final String PASSWORD = "the admin's password";

  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  private static Run run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = AdminCli.commandLine(environment::get);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return new Run(cli.execute(args), out.toString(), err.toString());
  }

  @Test
  void theAdministratorLogsInAndOthersAreToldHow() {
    try (TestNode node = TestNode.start(dir, Map.of(AuthSettings.ENABLED, "true",
        AuthSettings.TOKEN_KEY, ClientAuthTest.KEY))) {
      Http.Response set = node.http.postForm("/nacos/v1/auth/users/admin", Map.of("password", PASSWORD));
      assertThat(set.status()).as(set.body()).isEqualTo(200);
      String server = "127.0.0.1:" + node.node().config().port();

      Run anonymous = run(Map.of(), "--server", server, "members", "list");
      assertThat(anonymous.exit()).isEqualTo(1);
      assertThat(anonymous.err()).contains("403").contains("--username").contains("NACRE_PASSWORD");

      Run noPassword = run(Map.of(), "--server", server, "--username", "nacos", "members", "list");
      assertThat(noPassword.exit()).isEqualTo(2);
      assertThat(noPassword.err()).contains("NACRE_PASSWORD").doesNotContain("Exception");

      Run wrong = run(Map.of("NACRE_PASSWORD", "not it"), "--server", server, "--username", "nacos", "status");
      assertThat(wrong.exit()).isEqualTo(1);
      assertThat(wrong.err()).contains("/nacos/v1/auth/login").doesNotContain("not it");

      Map<String, String> admin = Map.of("NACRE_PASSWORD", PASSWORD);
      Run list = run(admin, "--server", server, "--username", "nacos", "members", "list");
      assertThat(list.exit()).as(list.err()).isZero();
      assertThat(list.out().lines()).containsExactly("MEMBER", server);
      Run snapshot = run(admin, "--server", server, "--username", "nacos", "snapshot");
      assertThat(snapshot.exit()).as(snapshot.err()).isZero();

      Run add = run(admin, "--server", server, "--username", "nacos", "members", "add", "127.0.0.1:1999");
      assertThat(add.exit()).isEqualTo(1);
      assertThat(add.err()).contains("400").contains("standalone");
    }
  }
}
