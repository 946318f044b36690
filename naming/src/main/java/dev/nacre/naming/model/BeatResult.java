package dev.nacre.naming.model;

/**
 * Answer to a heartbeat.
 *
 * @param found false when the instance is unknown and the beat could not re-create it (Nacos code
 *     20404: the client registers again)
 * @param clientBeatIntervalMillis how often the client should beat
 */
public record BeatResult(boolean found, long clientBeatIntervalMillis) {}
