package dev.nacre.node.naming.selector;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nacre.naming.api.NamingException;
import dev.nacre.naming.api.NamingOperations;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.model.Paging;
import dev.nacre.naming.model.ServiceKey;
import dev.nacre.naming.model.ServicePage;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The selector of a service list query (the Nacos client's {@code getServicesOfServer(..., selector)},
 * over gRPC and HTTP): {@code {"type":"label","expression":"INSTANCE.metadata.KEY = 'VALUE'"}} keeps
 * the services with at least one instance whose metadata has KEY = VALUE, {@code
 * SERVICE.metadata.KEY = 'VALUE'} those whose own metadata has it; type {@code none}, or a label
 * selector without an expression, keeps every service. These are Nacos 1.x' rules for its HTTP
 * list; Nacos 2.x ignores the selector over gRPC. Unlike Nacos, which reads the key after the last
 * dot, the key is everything after {@code metadata.}, so keys with dots match.
 *
 * <p>A selector that is no JSON object, of another type, or whose expression is not of that form
 * is refused with {@link NamingException.Kind#INVALID} saying what is accepted. Immutable.
 */
public final class ServiceListSelector {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String FORM = "a selector is {\"type\":\"none\"} or {\"type\":\"label\",\"expression\":"
      + "\"INSTANCE.metadata.KEY = 'VALUE'\"} (or SERVICE.metadata.KEY = 'VALUE')";

  private enum Scope { INSTANCE, SERVICE }

  private record Condition(Scope scope, String key, String value) {}

  private final Optional<Condition> condition;

  private ServiceListSelector(Optional<Condition> condition) {
    this.condition = condition;
  }

  /** The selector a query sent; a null or blank one keeps every service. */
  public static ServiceListSelector parse(String selectorJson) {
    if (selectorJson == null || selectorJson.isBlank()) {
      return new ServiceListSelector(Optional.empty());
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(selectorJson);
    } catch (JsonProcessingException e) {
      throw NamingException.invalid("selector is not JSON (" + e.getOriginalMessage() + "); " + FORM);
    }
    if (node == null || !node.isObject()) {
      throw NamingException.invalid("selector is not a JSON object; " + FORM);
    }
    String type = node.path("type").asText("");
    if (type.equals("none")) {
      return new ServiceListSelector(Optional.empty());
    }
    if (!type.equals("label")) {
      throw NamingException.invalid("selector type '" + type + "' is not known; " + FORM);
    }
    String expression = node.path("expression").asText("").replaceAll("\\s", "");
    return new ServiceListSelector(expression.isEmpty() ? Optional.empty() : Optional.of(condition(expression)));
  }

  private static Condition condition(String expression) {
    String[] sides = expression.split("=", -1);
    if (sides.length == 2) {
      for (Scope scope : Scope.values()) {
        String prefix = scope.name() + ".metadata.";
        String value = unquoted(sides[1]);
        if (sides[0].startsWith(prefix) && sides[0].length() > prefix.length() && !value.isEmpty()) {
          return new Condition(scope, sides[0].substring(prefix.length()), value);
        }
      }
    }
    throw NamingException.invalid("selector expression '" + expression + "' is not understood; " + FORM);
  }

  private static String unquoted(String value) {
    return value.length() >= 2 && value.startsWith("'") && value.endsWith("'")
        ? value.substring(1, value.length() - 1) : value;
  }

  /** True when this selector keeps every service. */
  public boolean keepsAll() {
    return condition.isEmpty();
  }

  /**
   * One page of the group's service names that the selector keeps, sorted; {@code count} is how
   * many it keeps in all. Services that go away while it looks are left out.
   */
  public ServicePage page(NamingOperations naming, String namespaceId, String group, int pageNo, int pageSize) {
    if (condition.isEmpty()) {
      return naming.listServices(namespaceId, group, pageNo, pageSize);
    }
    List<String> all = naming.listServices(namespaceId, group, 1, Integer.MAX_VALUE).names();
    List<String> kept = all.stream().filter(name -> keeps(naming, new ServiceKey(namespaceId, group, name))).toList();
    return new ServicePage(kept.size(), Paging.page(kept, pageNo, pageSize));
  }

  private boolean keeps(NamingOperations naming, ServiceKey service) {
    Condition c = condition.orElseThrow();
    Predicate<java.util.Map<String, String>> matches = metadata -> c.value().equals(metadata.get(c.key()));
    try {
      return c.scope() == Scope.SERVICE
          ? matches.test(naming.getService(service).metadata())
          : naming.allInstances(service).stream().map(Instance::metadata).anyMatch(matches);
    } catch (NamingException e) {
      if (e.kind() == NamingException.Kind.NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }
}
