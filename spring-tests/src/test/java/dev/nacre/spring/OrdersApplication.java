package dev.nacre.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.context.config.annotation.RefreshScope;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An ordinary Spring Boot web application with {@code spring-cloud-starter-alibaba-nacos-discovery}
 * and {@code spring-cloud-starter-alibaba-nacos-config} on its class path and nothing
 * Nacre-specific: it registers, discovers and deregisters only through the discovery starter, and
 * reads its settings through the config starter, configured by {@code application.properties} and
 * command-line arguments.
 */
@SpringBootApplication
public class OrdersApplication {

  /** Starts one instance on a free port, as {@code java -jar orders.jar ARGS}. */
  static ConfigurableApplicationContext start(String... args) {
    return new SpringApplicationBuilder(OrdersApplication.class)
        .main(OrdersApplication.class)
        .run(args);
  }

  /** {@code orders.greeting} as the application sees it now: rebuilt when a change is refreshed. */
  @Component
  @RefreshScope
  static class Greeter {
    @Value("${orders.greeting:unset}")
    private String greeting;

    String greeting() {
      return greeting;
    }
  }

  @RestController
  static class Greeting {
    @Value("${spring.application.name}")
    private String name;

    @GetMapping("/hello")
    String hello() {
      return "hello from " + name;
    }
  }
}
