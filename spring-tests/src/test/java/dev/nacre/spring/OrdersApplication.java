package dev.nacre.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An ordinary Spring Boot web application with {@code spring-cloud-starter-alibaba-nacos-discovery}
 * on its class path and nothing Nacre-specific: it registers, discovers and deregisters only
 * through the starter, configured by {@code application.properties} and the server address.
 */
@SpringBootApplication
public class OrdersApplication {

  /** Starts one instance on a free port, as {@code java -jar orders.jar --spring.cloud.nacos.discovery.server-addr=...}. */
  static ConfigurableApplicationContext start(String serverAddr) {
    return new SpringApplicationBuilder(OrdersApplication.class)
        .main(OrdersApplication.class)
        .run("--spring.cloud.nacos.discovery.server-addr=" + serverAddr);
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
