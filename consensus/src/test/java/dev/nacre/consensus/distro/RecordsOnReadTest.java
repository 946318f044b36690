package dev.nacre.consensus.distro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RecordsOnReadTest {
  private static DistroRecord record(int i) {
    return DistroRecord.live("k" + i, "owner", i + 1, new byte[] {(byte) i});
  }

  @Test
  void buildsARecordOnlyWhenItIsRead() {
    AtomicInteger built = new AtomicInteger();
    List<DistroRecord> records = RecordsOnRead.of(3, i -> {
      built.incrementAndGet();
      return record(i);
    });
    assertEquals(3, records.size());
    assertEquals(0, built.get(), "nothing is built before a read");
    assertEquals(record(1), records.get(1));
    assertEquals(1, built.get());
    List<DistroRecord> all = new ArrayList<>(records);
    assertEquals(List.of(record(0), record(1), record(2)), all);
    assertEquals(4, built.get(), "each read builds again");
    assertThrows(IndexOutOfBoundsException.class, () -> records.get(3));
  }

  @Test
  void joinedListsReadAsOneInOrder() {
    List<DistroRecord> joined =
        RecordsOnRead.joined(List.of(record(0), record(1)), RecordsOnRead.of(2, i -> record(i + 2)));
    assertEquals(List.of(record(0), record(1), record(2), record(3)), joined);
    assertThrows(IndexOutOfBoundsException.class, () -> joined.get(-1));
  }
}
