package dev.nacre.node.console;

import dev.nacre.node.http.ApiResponse;
import dev.nacre.node.http.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The web console: a page, its scripts and a style sheet from the node jar, served at {@code /nacos/}
 * (and {@code /}) on the HTTP port. The page only calls the Open API, so it needs nothing else here.
 *
 * <p>Each file has a route of its own and is read from the jar once, at start: a path that is
 * not one of them gets the router's 404, so no request can name a file (no {@code ..}, no
 * directory listing) and a node built without the files fails at start, not on first use.
 */
public final class ConsoleFiles {
  static final String BASE = "/nacos";
  private static final String RESOURCES = "/dev/nacre/node/console/";
  private static final String HTML = "text/html;charset=UTF-8";
  private static final String JS = "text/javascript;charset=UTF-8";

  /** Served file name to its content type. */
  private static final Map<String, String> FILES = Map.of(
      "index.html", HTML,
      "console-api.js", JS,
      "console.js", JS,
      "console-admin.js", JS,
      "console-config.js", JS,
      "console-config-detail.js", JS,
      "console.css", "text/css;charset=UTF-8");

  /** {@code /} and {@code /nacos} (the router also matches {@code /nacos/}) show the page too. */
  private static final Set<String> PAGE_PATHS = Set.of("/", BASE);

  private final Map<String, ApiResponse> byPath = new LinkedHashMap<>();

  public ConsoleFiles() {
    FILES.forEach((name, type) -> byPath.put(BASE + "/" + name, new ApiResponse(200, type, read(name))));
    ApiResponse page = byPath.get(BASE + "/index.html");
    PAGE_PATHS.forEach(path -> byPath.put(path, page));
  }

  public void register(Router router) {
    byPath.forEach((path, response) -> router.add("GET", path, r -> response));
  }

  /**
   * True for the console's own paths: they are served while the node is not ready yet, so that
   * the page can load and show the API's "not ready" answers instead of a bare 503.
   */
  public static boolean serves(String path) {
    String normalized = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return PAGE_PATHS.contains(normalized)
        || (normalized.startsWith(BASE + "/") && FILES.containsKey(normalized.substring(BASE.length() + 1)));
  }

  private static byte[] read(String name) {
    try (InputStream in = ConsoleFiles.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("the console file " + RESOURCES + name
            + " is missing from the node's classpath; rebuild the node jar (mvn -pl node -am package)");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the console file " + RESOURCES + name + " from the node jar", e);
    }
  }
}
