package dev.nacre.naming.push;

import dev.nacre.naming.api.PushTarget;
import dev.nacre.naming.model.ServiceView;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A push target that records what it was sent and answers as told. */
final class RecordingTarget implements PushTarget {
  private final String id;
  private final Function<ServiceView, CompletableFuture<Void>> answer;
  final List<ServiceView> received = new CopyOnWriteArrayList<>();

  RecordingTarget(String id, Function<ServiceView, CompletableFuture<Void>> answer) {
    this.id = id;
    this.answer = answer;
  }

  /** Acknowledges every push at once. */
  static RecordingTarget acking(String id) {
    return new RecordingTarget(id, v -> CompletableFuture.completedFuture(null));
  }

  /** Never acknowledges (pending futures the caller may time out). */
  static RecordingTarget silent(String id) {
    return new RecordingTarget(id, v -> new CompletableFuture<>());
  }

  @Override
  public String clientId() {
    return id;
  }

  @Override
  public CompletableFuture<Void> push(ServiceView view) {
    received.add(view);
    return answer.apply(view);
  }

  List<String> checksums() {
    return received.stream().map(ServiceView::checksum).toList();
  }
}
