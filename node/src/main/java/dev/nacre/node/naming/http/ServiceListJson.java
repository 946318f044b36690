package dev.nacre.node.naming.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.model.ServiceView;
import dev.nacre.node.http.ApiResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The {@code /instance/list} body as bytes, the same bytes Jackson writes for
 * {@link Views#serviceList} with the clusters parameter echoed. Everything but the echoed
 * clusters and {@code lastRefTime} depends only on the service snapshot and the filter, so it is
 * encoded once into the view's {@link dev.nacre.naming.model.RenderCache} and each request splices
 * its two values in: a busy list is served without building maps or writing its hosts again.
 */
public final class ServiceListJson {
  private static final String FRAME = "http.v1.instance-list";
  private static final byte[] EMPTY_STRING = {'"', '"'};

  /** The body cut where the per-request values go: head, clusters, middle, lastRefTime, tail. */
  private record Frame(byte[] head, byte[] middle, byte[] tail) {}

  private final ObjectMapper mapper;

  public ServiceListJson() {
    this(new ObjectMapper());
  }

  ServiceListJson(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The {@code /instance/list} answer, the clusters parameter echoed as the client sent it. */
  public ApiResponse answer(ServiceView view, String clustersAsAsked) {
    return ApiResponse.json(render(view, clustersAsAsked));
  }

  byte[] render(ServiceView view, String clustersAsAsked) {
    Frame frame = view.renderings().get(FRAME, () -> frame(view));
    byte[] clusters = clustersAsAsked.isEmpty() ? EMPTY_STRING : json(clustersAsAsked);
    byte[] time = Long.toString(view.lastRefTime()).getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[frame.head.length + clusters.length + frame.middle.length + time.length
        + frame.tail.length];
    int at = 0;
    for (byte[] part : new byte[][] {frame.head, clusters, frame.middle, time, frame.tail}) {
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    return out;
  }

  // Field order and values as Views.serviceList; the hosts array is Jackson's own output.
  private Frame frame(ServiceView view) {
    List<Map<String, Object>> hosts = view.hosts().stream().map(Views::host).toList();
    String head = "{\"name\":" + text(view.service().groupedName())
        + ",\"groupName\":" + text(view.service().group()) + ",\"clusters\":";
    String middle = ",\"cacheMillis\":" + Views.CACHE_MILLIS + ",\"hosts\":" + text(hosts) + ",\"lastRefTime\":";
    String tail = ",\"checksum\":" + text(view.checksum()) + ",\"allIPs\":false,\"reachProtectionThreshold\":"
        + view.reachProtectionThreshold() + ",\"valid\":true}";
    return new Frame(utf8(head), utf8(middle), utf8(tail));
  }

  private String text(Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the instance list as JSON", e);
    }
  }

  private byte[] json(String value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the clusters parameter as JSON", e);
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
