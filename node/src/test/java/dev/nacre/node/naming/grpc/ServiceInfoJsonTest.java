package dev.nacre.node.naming.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.InstanceKey;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.client.PayloadCodec;
import dev.nacre.node.client.Replies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The gRPC {@code serviceInfo} with its cached hosts encodes as the tree built afresh does. */
@Timeout(30)
class ServiceInfoJsonTest {
  static final ServiceKey SERVICE = new ServiceKey("ns", "g", "svc\"é");
  private final PayloadCodec codec = new PayloadCodec();

  @Test
  void cachedHostsEncodeAsFreshOnes() {
    ServiceView view = new ServiceView(SERVICE, "c1", List.of(
        new Instance(new InstanceKey(SERVICE, "c1", "10.0.0.1", 80), 2.5, true, true, true,
            Map.of("a", "1", "b", "x\"\n")),
        new Instance(new InstanceKey(SERVICE, "c1", "10.0.0.2", 80), 1, false, true, false, Map.of())),
        false, 42, "sum");
    for (int round = 0; round < 3; round++) {
      ServiceView at = view.at(42 + round);
      String cached = codec.text(wrapped(ServiceInfoJson.serviceInfo(codec, at, "c1,x")));
      assertThat(cached).isEqualTo(codec.text(wrapped(fresh(at, "c1,x"))));
      assertThat(codec.encode("QueryServiceResponse", wrapped(ServiceInfoJson.serviceInfo(codec, at, "")))
          .getBody().getValue().toStringUtf8()).isEqualTo(codec.text(wrapped(fresh(at, ""))));
    }
  }

  private ObjectNode wrapped(ObjectNode info) {
    ObjectNode body = Replies.ok(codec, "QueryServiceResponse").body();
    body.set("serviceInfo", info);
    return body;
  }

  // The serviceInfo as it was built before the cache: the hosts as a tree in place.
  private ObjectNode fresh(ServiceView view, String clusters) {
    ObjectNode info = ServiceInfoJson.serviceInfo(codec, view, clusters);
    info.set("hosts", ServiceInfoJson.hosts(codec, view));
    return info;
  }
}
