package dev.nacre.node.configs.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.node.http.HttpGate;
import dev.nacre.node.http.HttpLimits;
import dev.nacre.node.http.HttpServer;
import dev.nacre.node.http.RequestWaits;
import dev.nacre.node.http.Router;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import dev.nacre.node.configs.http.ConfigClient.Answer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The config HTTP layer on a real HTTP server over an in-memory fake of the config module. */
class ConfigHttpApiTest extends ConfigHttpContract {
  private final FakeConfig config = new FakeConfig();
  private HttpServer server;
  private ConfigClient client;

  @BeforeAll
  void start() throws Exception {
    Router router = new Router();
    ConfigHttpApi.register(router, config, config.listeners());
    server = HttpServer.start("config-http-test", new InetSocketAddress("127.0.0.1", 0), router,
        HttpLimits.defaults(), RequestWaits::of, HttpGate.OPEN);
    client = new ConfigClient(server.address().getPort());
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  ConfigClient client() {
    return client;
  }

  @Override
  void awaitHeld(CompletableFuture<Answer> held, String dataId, String tenant) {
    awaitListening(dataId, tenant);
    assertThat(held).isNotDone();
  }

  private void awaitListening(String dataId, String tenant) {
    awaitTrue(() -> !config.listeners().listenersOf(new ConfigKey(tenant, "G", dataId)).isEmpty());
  }

  @Test
  void aHeldPollStopsListeningWhenItsConnectionCloses() throws Exception {
    String form = "Listening-Configs=" + java.net.URLEncoder.encode(ConfigClient.probe("lp.closed", "G", "", ""),
        StandardCharsets.UTF_8);
    try (Socket socket = new Socket("127.0.0.1", server.address().getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST " + LongPolling.LISTENER + " HTTP/1.1\r\nHost: x\r\nLong-Pulling-Timeout: 30000\r\n"
          + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length() + "\r\n\r\n" + form)
          .getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      awaitListening("lp.closed", "");
    }
    // Other tests' polls (the 1.4 client's after its shutdown) may still be held: this one's key is checked.
    awaitTrue(() -> config.listeners().listenersOf(new ConfigKey("", "G", "lp.closed")).isEmpty());
  }
}
