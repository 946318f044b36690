package dev.nacre.node.naming.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.naming.api.NamingException;
import dev.nacre.node.http.ApiResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each kind of naming refusal gets its HTTP status and its message; other failures are not naming's. */
@Timeout(10)
class NamingErrorsTest {
  @Test
  void eachKindHasItsStatus() {
    assertThat(status(NamingException.Kind.INVALID)).isEqualTo(400);
    assertThat(status(NamingException.Kind.CONFLICT)).isEqualTo(400);
    assertThat(status(NamingException.Kind.NOT_FOUND)).isEqualTo(404);
    assertThat(status(NamingException.Kind.UNAVAILABLE)).isEqualTo(503);
    ApiResponse answer = NamingErrors.answer(new NamingException(NamingException.Kind.INVALID, "bad port")).orElseThrow();
    assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("bad port");
  }

  @Test
  void otherFailuresAreLeftToTheRouter() {
    assertThat(NamingErrors.answer(new IllegalStateException("boom"))).isEmpty();
  }

  private static int status(NamingException.Kind kind) {
    return NamingErrors.answer(new NamingException(kind, "refused")).orElseThrow().status();
  }
}
