package dev.nacre.consensus.distro;

/** Stable 64-bit hashes, identical on every JVM: digests and ownership depend on them. */
final class Hashing {
  private Hashing() {}

  /** FNV-1a over the UTF-16 chars, then a SplitMix64 finaliser to spread the bits. */
  static long hash(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    return mix(h);
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** The contribution of one record to its owner's digest checksum. */
  static long digestEntry(String key, long revision, boolean tombstone) {
    long h = mix(hash(key) ^ mix(revision + 0x9e3779b97f4a7c15L));
    return tombstone ? mix(h ^ 0x5bd1e9955bd1e995L) : h;
  }
}
