package dev.nacre.naming.push;

/** Hears how pushes end, for metrics. Called on the push thread: must not block. */
public interface PushObserver {
  PushObserver NONE = new PushObserver() {
    @Override
    public void completed(boolean acknowledged, long nanos) {}

    @Override
    public void dropped() {}
  };

  /** A push was acknowledged (or failed: no answer in time, or the send failed) after {@code nanos}. */
  void completed(boolean acknowledged, long nanos);

  /** A subscriber was dropped: it acknowledged nothing for the drop-after period. */
  void dropped();
}
