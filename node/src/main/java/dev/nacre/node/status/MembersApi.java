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
import java.util.function.Function;

/**
 * The operator's membership commands ({@code scripts/nacre members add|remove}; Nacos has none):
 * {@code GET /nacre/v1/cluster/members} lists the members, {@code POST ...?member=HOST:PORT} adds
 * one (it must already run, started with the new list), {@code DELETE ...?member=HOST:PORT}
 * removes one. Any member answers; a change returns once the Raft group has committed it. The
 * administrator's, when client authentication is on (see {@code HttpAccessRules}).
 */
public final class MembersApi {
  static final String PATH = "/nacre/v1/cluster/members";

  /** What the commands ask of the cluster. */
  public interface Membership {
    /** The members now, self included. */
    List<MemberAddress> members();

    /**
     * Makes {@code member} a member (nothing when it is one) and returns the new list.
     *
     * @throws IllegalArgumentException when this node cannot take members (standalone)
     * @throws ConsensusUnavailableException when the Raft group did not commit the change in time
     */
    List<MemberAddress> add(MemberAddress member);

    /** Removes {@code member} and returns the new list; as {@link #add} for errors, and for a non-member. */
    List<MemberAddress> remove(MemberAddress member);
  }

  private final String self;
  private final Membership membership;
  private final Json json;

  public MembersApi(String self, Membership membership, Json json) {
    this.self = self;
    this.membership = membership;
    this.json = json;
  }

  public void register(Router router) {
    router.add("GET", PATH, r -> answer("", membership.members()))
        .add("POST", PATH, r -> change(r, "added", membership::add))
        .add("DELETE", PATH, r -> change(r, "removed", membership::remove));
  }

  private ApiResponse change(ApiRequest r, String what, Function<MemberAddress, List<MemberAddress>> change) {
    String asked = r.param("member").orElseThrow(() -> HttpError.badRequest(
        "Param 'member' is required: the HOST:PORT (main port) of the member, as in nacre.members."));
    MemberAddress member;
    try {
      member = MemberAddress.parse(asked);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("Param 'member' is illegal: " + e.getMessage());
    }
    try {
      return answer(what.isEmpty() ? "" : member.toString(), change.apply(member), what);
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest(e.getMessage());
    } catch (ConsensusUnavailableException e) {
      throw new HttpError(503, e.getMessage());
    }
  }

  private ApiResponse answer(String member, List<MemberAddress> members) {
    return answer(member, members, "");
  }

  private ApiResponse answer(String member, List<MemberAddress> members, String what) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("server", self);
    if (!what.isEmpty()) {
      body.put(what, member);
    }
    body.put("members", members.stream().map(MemberAddress::toString).toList());
    return json.response(body);
  }
}
