package dev.nacre.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Routes that answer through a future, served with and without waiting. */
class RouterTest {
  private final CompletableFuture<ApiResponse> pending = new CompletableFuture<>();
  private final List<String> observed = new ArrayList<>();
  private final Router router = new Router()
      .addAsync("POST", "/later", r -> pending)
      .addAsync("POST", "/refused", r -> CompletableFuture.failedFuture(new Refused("bad instance")))
      .addAsync("POST", "/throws", r -> {
        throw HttpError.badRequest("Param 'ip' is required.");
      })
      .add("GET", "/sync", r -> ApiResponse.ok())
      .observe((request, route, response, nanos) -> observed.add(route + " " + response.status()))
      .answerErrors(e -> e instanceof Refused ? Optional.of(ApiResponse.error(400, e.getMessage())) : Optional.empty());

  /** A domain's refusal, answered by the domain's {@link Router.ErrorAnswers}. */
  private static final class Refused extends RuntimeException {
    Refused(String message) {
      super(message);
    }
  }

  @Test
  void anAsyncRouteAnswersWhenItsFutureCompletes() {
    CompletableFuture<ApiResponse> answer = router.serveAsync(request("POST", "/later"));
    assertThat(answer).isNotDone();
    assertThat(observed).isEmpty();

    pending.complete(ApiResponse.text(200, "ok"));
    assertThat(answer.join().status()).isEqualTo(200);
    assertThat(observed).containsExactly("/later 200");
  }

  @Test
  void failuresBecomeNacosErrorsWhetherThrownOrInTheFuture() {
    ApiResponse refused = router.serveAsync(request("POST", "/refused")).join();
    assertThat(refused.status()).isEqualTo(400);
    assertThat(new String(refused.body(), StandardCharsets.UTF_8)).contains("bad instance");
    assertThat(router.serveAsync(request("POST", "/throws")).join().status()).isEqualTo(400);
    assertThat(router.serve(request("POST", "/refused")).status()).as("waited for on a worker").isEqualTo(400);
  }

  @Test
  void theGuardRefusesBeforeTheHandlerRuns() {
    router.guard(r -> Optional.of(ApiResponse.error(503, "starting")));
    assertThat(router.serveAsync(request("POST", "/later")).join().status()).isEqualTo(503);
    assertThat(pending).isNotDone();
  }

  @Test
  void onlyRoutesAddedAsAsyncAnswerThroughAFuture() {
    assertThat(router.answersAsync(request("POST", "/later"))).isTrue();
    assertThat(router.answersAsync(request("GET", "/later"))).isFalse();
    assertThat(router.answersAsync(request("GET", "/sync"))).isFalse();
  }

  private static ApiRequest request(String method, String path) {
    return new ApiRequest(method, path, Map.of(), "", Optional.empty());
  }
}
