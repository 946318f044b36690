package dev.nacre.naming.persistent;

import dev.nacre.naming.support.NamingMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nacre.consensus.raft.Outcome;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.proto.naming.AuthRecord;
import dev.nacre.proto.naming.AuthRecordId;
import dev.nacre.proto.naming.NamingOperation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Client-authentication records in the state machine: applied, refused, persisted, snapshotted. */
@Timeout(60)
class AuthRecordStateTest {
  @TempDir Path dir;

  private static byte[] create(String kind, String name, String value) {
    return NamingOperation.newBuilder().setCreateAuthRecord(record(kind, name, value)).build().toByteArray();
  }

  private static byte[] put(String kind, String name, String value) {
    return NamingOperation.newBuilder().setPutAuthRecord(record(kind, name, value)).build().toByteArray();
  }

  private static byte[] remove(String kind, String name) {
    return NamingOperation.newBuilder().setRemoveAuthRecord(
        AuthRecordId.newBuilder().setKind(kind).setName(name)).build().toByteArray();
  }

  private static AuthRecord record(String kind, String name, String value) {
    return AuthRecord.newBuilder().setKind(kind).setName(name)
        .setValue(ByteString.copyFrom(value, StandardCharsets.UTF_8)).build();
  }

  private static String value(AuthRecords records, String kind, String name) {
    return records.get(kind, name).map(v -> new String(v, StandardCharsets.UTF_8)).orElse(null);
  }

  @Test
  void aCreateOfAnExistingRecordIsRefusedEvenWithinOneEntry() {
    try (NamingMachine sm = NamingMachine.open(dir.resolve("db"), new RegistryIndex())) {
      long before = sm.authRecords().version();
      List<Outcome> outcomes = sm.apply(1, List.of(create("user", "nacos", "first"), create("user", "nacos", "second")));
      assertThat(outcomes).extracting(Outcome::isRejected).containsExactly(false, true);
      assertThat(outcomes.get(1).rejection()).contains("already exists");
      assertThat(value(sm.authRecords(), "user", "nacos")).isEqualTo("first");
      assertThat(sm.authRecords().version()).isGreaterThan(before);
      assertThat(sm.apply(2, List.of(put("user", "nacos", "changed"), remove("role", "absent"))))
          .noneMatch(Outcome::isRejected);
      assertThat(value(sm.authRecords(), "user", "nacos")).isEqualTo("changed");
      assertThat(sm.apply(3, List.of(put("", "x", "v")))).allMatch(Outcome::isRejected);
    }
  }

  @Test
  void recordsSurviveARestartAndTravelInASnapshot() throws java.io.IOException {
    Path snapshot = java.nio.file.Files.createDirectories(dir.resolve("snap"));
    try (NamingMachine sm = NamingMachine.open(dir.resolve("a"), new RegistryIndex())) {
      sm.apply(1, List.of(put("user", "alice", "hash-a"), put("role", "dev\talice", ""),
          put("permission", "dev\tpublic:*:*\tr", ""), put("user", "bob", "hash-b")));
      sm.apply(2, List.of(remove("user", "bob")));
      sm.writeSnapshot(snapshot);
    }
    try (NamingMachine reopened = NamingMachine.open(dir.resolve("a"), new RegistryIndex())) {
      assertThat(reopened.authRecords().list("user")).containsOnlyKeys("alice");
      assertThat(value(reopened.authRecords(), "user", "alice")).isEqualTo("hash-a");
    }
    try (NamingMachine other = NamingMachine.open(dir.resolve("b"), new RegistryIndex())) {
      other.apply(1, List.of(put("user", "stale", "gone after the install")));
      other.installSnapshot(snapshot);
      assertThat(other.authRecords().list("user")).containsOnlyKeys("alice");
      assertThat(other.authRecords().list("role")).containsOnlyKeys("dev\talice");
      assertThat(other.authRecords().list("permission")).containsOnlyKeys("dev\tpublic:*:*\tr");
    }
  }
}
