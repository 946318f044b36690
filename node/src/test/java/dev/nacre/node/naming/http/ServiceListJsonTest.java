package dev.nacre.node.naming.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code /instance/list} body spliced from cached parts is byte for byte what Jackson writes
 * for the map of {@link Views#serviceList}, whatever the time and the clusters parameter.
 */
@Timeout(30)
class ServiceListJsonTest {
  static final ServiceKey SERVICE = new ServiceKey("public", "g\"1", "svc\\é");
  private final ObjectMapper mapper = new ObjectMapper();
  private final ServiceListJson json = new ServiceListJson();

  @Test
  void splicedBodyEqualsTheRenderedMap() throws Exception {
    List<Instance> hosts = List.of(
        new Instance(new InstanceKey(SERVICE, "c1", "10.0.0.1", 80), 1.0, true, true, true,
            Map.of("preserved.heart.beat.interval", "3000", "note", "a \"quoted\"\n, ünicode")),
        new Instance(new InstanceKey(SERVICE, "c2", "10.0.0.2", 81), 0.25, false, true, false, Map.of()));
    ServiceView view = new ServiceView(SERVICE, "c1,c2", hosts, true, 1_700_000_000_123L, "abc123");
    for (String asked : List.of("", "c2,c1", "we\"ird\u0001")) {
      for (long time : new long[] {0, 1_700_000_000_123L, Long.MAX_VALUE}) {
        ServiceView at = view.at(time);
        assertThat(new String(json.answer(at, asked).body(), StandardCharsets.UTF_8))
            .isEqualTo(expected(at, asked));
      }
    }
    ServiceView empty = new ServiceView(SERVICE, "", List.of(), false, 5, "e");
    assertThat(new String(json.answer(empty, "").body(), StandardCharsets.UTF_8))
        .isEqualTo(expected(empty, ""));
  }

  @Test
  void theCacheBelongsToTheView() throws Exception {
    ServiceView one = new ServiceView(SERVICE, "", List.of(
        new Instance(new InstanceKey(SERVICE, "c", "10.0.0.1", 80), 1, true, true, true, Map.of())), false, 1, "x");
    ServiceView other = new ServiceView(SERVICE, "", List.of(), false, 1, "y");
    json.answer(one, "");
    assertThat(new String(json.answer(other, "").body(), StandardCharsets.UTF_8))
        .as("a view with other hosts never gets another view's bytes").isEqualTo(expected(other, ""));
  }

  // What InstanceApi answered before the cache: the map with the parameter echoed.
  private String expected(ServiceView view, String asked) throws Exception {
    Map<String, Object> body = Views.serviceList(view);
    body.put("clusters", asked);
    return mapper.writeValueAsString(body);
  }
}
