package dev.nacre.config.support;

import dev.nacre.config.api.ConfigKey;
import dev.nacre.config.api.PublishRequest;
import dev.nacre.config.api.RemoveRequest;
import java.util.Optional;

/** Requests as the client ports build them, with defaults tests rarely care about. */
public final class Requests {
  public static final ConfigKey KEY = new ConfigKey("", "DEFAULT_GROUP", "app.properties");
  public static final String IP = "10.0.0.1";

  private Requests() {}

  public static PublishRequest publish(ConfigKey key, String content) {
    return new PublishRequest(key, content, "properties", "app", "", "", "", "alice", IP, Optional.empty(),
        Optional.empty(), Optional.empty());
  }

  public static PublishRequest cas(ConfigKey key, String content, String md5) {
    return new PublishRequest(key, content, "properties", "app", "", "", "", "alice", IP, Optional.of(md5),
        Optional.empty(), Optional.empty());
  }

  public static PublishRequest beta(ConfigKey key, String content, String betaIps) {
    return new PublishRequest(key, content, "properties", "app", "", "", "", "alice", IP, Optional.empty(),
        Optional.of(betaIps), Optional.empty());
  }

  public static PublishRequest tagged(ConfigKey key, String content, String tag) {
    return new PublishRequest(key, content, "properties", "app", "", "", "", "alice", IP, Optional.empty(),
        Optional.empty(), Optional.of(tag));
  }

  public static RemoveRequest remove(ConfigKey key) {
    return new RemoveRequest(key, false, Optional.empty(), "bob", IP);
  }

  public static RemoveRequest stopBeta(ConfigKey key) {
    return new RemoveRequest(key, true, Optional.empty(), "bob", IP);
  }

  public static RemoveRequest removeTag(ConfigKey key, String tag) {
    return new RemoveRequest(key, false, Optional.of(tag), "bob", IP);
  }
}
