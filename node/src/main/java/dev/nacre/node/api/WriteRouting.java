package dev.nacre.node.api;

import dev.nacre.naming.model.ServiceKey;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Router;
import java.util.Optional;

/**
 * Where an HTTP write of ephemeral data must be answered: by the member responsible for the
 * service. A standalone node answers everything itself.
 */
public interface WriteRouting {

  /** The other member that must answer writes for {@code service}; empty when it is this one. */
  Optional<String> remoteOwner(ServiceKey service);

  /**
   * Replays the request on {@code member} and returns its answer; empty when the member could not
   * be reached, in which case the caller answers it itself (ephemeral writes stay available, and
   * the writes are idempotent, so a copy that did arrive does no harm).
   */
  Optional<ApiResponse> forward(String member, ApiRequest request);

  /**
   * The one forward-or-answer-here path of ephemeral writes and beats (v1 and v2): a request
   * from a client goes to the member responsible for {@code service}; {@code local} answers it
   * when that is this member, when it cannot be reached, or when the request was forwarded here.
   */
  default ApiResponse answerAtOwner(ServiceKey service, ApiRequest request, Router.Handler local) throws Exception {
    if (!request.forwarded()) {
      Optional<ApiResponse> answer = remoteOwner(service).flatMap(owner -> forward(owner, request));
      if (answer.isPresent()) {
        return answer.get();
      }
    }
    return local.handle(request);
  }

  /** Every write is answered here. */
  static WriteRouting local() {
    return new WriteRouting() {
      @Override
      public Optional<String> remoteOwner(ServiceKey service) {
        return Optional.empty();
      }

      @Override
      public Optional<ApiResponse> forward(String member, ApiRequest request) {
        throw new IllegalStateException("a standalone node forwards nothing");
      }
    };
  }
}
