package dev.nacre.naming.model;

/** A namespace; {@code public} always exists. */
public record Namespace(String id, String name, String description) {
  public static final Namespace PUBLIC = new Namespace("public", "public", "Public Namespace");
}
