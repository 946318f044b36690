package dev.nacre.dubbo;

/** The service the provider exports and the consumer calls. */
public interface GreetingService {
  String greet(String name);
}
