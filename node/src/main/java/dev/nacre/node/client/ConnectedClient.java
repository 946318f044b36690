package dev.nacre.node.client;

/**
 * A registered Nacos 2.x client connection as operators see it.
 *
 * @param id the connection id ({@code millis_ip_port}, as Nacos forms it)
 * @param version what the client said it is in its setup request, e.g. {@code Nacos-Java-Client:v2.5.1}
 * @param lastActiveMillis clock millis of the last request or answer on the connection
 */
public record ConnectedClient(String id, String ip, int port, String version, long lastActiveMillis) {}
