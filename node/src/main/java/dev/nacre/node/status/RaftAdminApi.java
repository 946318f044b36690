package dev.nacre.node.status;

import dev.nacre.consensus.raft.ConsensusUnavailableException;
import dev.nacre.node.config.MemberAddress;
import dev.nacre.node.http.ApiRequest;
import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.HttpError;
import dev.nacre.node.http.Json;
import dev.nacre.node.http.Router;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operator's Raft commands (Nacos has none; {@code scripts/nacre snapshot} and
 * {@code nacre leader transfer} call them): {@code POST /nacre/v1/raft/snapshot} has this node's
 * member write a snapshot now, {@code POST /nacre/v1/raft/leader?member=HOST:PORT} hands the
 * group's leadership to that member. Both wait up to the CP timeout.
 */
public final class RaftAdminApi {
  static final String BASE = "/nacre/v1/raft";

  /** What the commands ask of this node's Raft member. */
  public interface RaftCommands {
    /** Writes a snapshot now; returns its log index. */
    long takeSnapshot();

    /** Hands leadership to the member at this address (a configured member) and returns once it leads. */
    void transferLeadership(MemberAddress member);
  }

  private final String self;
  /** The members now: they change when the operator adds or removes one. */
  private final Supplier<List<String>> members;
  private final RaftCommands raft;
  private final Json json;

  public RaftAdminApi(String self, Supplier<List<String>> members, RaftCommands raft, Json json) {
    this.self = self;
    this.members = members;
    this.raft = raft;
    this.json = json;
  }

  public void register(Router router) {
    router.add("POST", BASE + "/snapshot", this::snapshot).add("POST", BASE + "/leader", this::transfer);
  }

  private ApiResponse snapshot(ApiRequest r) {
    long index;
    try {
      index = raft.takeSnapshot();
    } catch (ConsensusUnavailableException e) {
      throw new HttpError(503, e.getMessage());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("member", self);
    body.put("snapshotIndex", index);
    return json.response(body);
  }

  private ApiResponse transfer(ApiRequest r) {
    String asked = r.param("member").orElseThrow(() -> HttpError.badRequest(
        "Param 'member' is required: the HOST:PORT (main port) of the member that should lead."));
    MemberAddress member;
    try {
      member = MemberAddress.parse(asked);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("Param 'member' is illegal: " + e.getMessage());
    }
    List<String> now = members.get();
    if (!now.contains(member.toString())) {
      throw HttpError.badRequest("Param 'member' is illegal: " + member + " is not a member of this cluster;"
          + " members: " + now);
    }
    try {
      raft.transferLeadership(member);
    } catch (ConsensusUnavailableException e) {
      throw new HttpError(503, e.getMessage());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("leader", member.toString());
    return json.response(body);
  }
}
