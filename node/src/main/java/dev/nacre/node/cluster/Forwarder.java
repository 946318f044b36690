package dev.nacre.node.cluster;

import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.api.WriteRouting;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.proto.peer.ForwardRequest;
import dev.nacre.proto.peer.ForwardResponse;
import dev.nacre.proto.peer.HttpParam;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends ephemeral writes to the member responsible for their service, over the peer port. */
public final class Forwarder implements WriteRouting {
  private static final Logger log = LoggerFactory.getLogger(Forwarder.class);
  private final String self;
  private final PeerChannels channels;
  private final Function<ServiceKey, String> responsible;
  private final Duration timeout;

  /** @param responsible the member responsible for a service, as the ownership mapper says */
  public Forwarder(String self, PeerChannels channels, Function<ServiceKey, String> responsible, Duration timeout) {
    this.self = self;
    this.channels = channels;
    this.responsible = responsible;
    this.timeout = timeout;
  }

  @Override
  public Optional<String> remoteOwner(ServiceKey service) {
    String owner = responsible.apply(service);
    return owner.equals(self) ? Optional.empty() : Optional.of(owner);
  }

  @Override
  public Optional<ApiResponse> forward(String member, ApiRequest request) {
    ForwardRequest.Builder b = ForwardRequest.newBuilder()
        .setFrom(self).setMethod(request.method()).setPath(request.path()).setBody(request.body());
    request.params().forEach((name, values) ->
        values.forEach(v -> b.addParams(HttpParam.newBuilder().setName(name).setValue(v))));
    try {
      ForwardResponse r = channels.stub(member).withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
          .forward(b.build()).get(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
      return Optional.of(new ApiResponse(r.getStatus(), r.getContentType(), r.getBody().toByteArray()));
    } catch (ExecutionException | TimeoutException e) {
      log.info("[{}] {} {} answered here: {}, responsible for it, did not answer ({})", self, request.method(),
          request.path(), member, e.getCause() != null ? e.getCause().getMessage() : e.toString());
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
