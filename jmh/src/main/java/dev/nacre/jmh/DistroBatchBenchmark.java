package dev.nacre.jmh;

import dev.nacre.naming.distro.DistroKeys;
import dev.nacre.naming.distro.EphemeralInstanceCodec;
import dev.nacre.naming.ephemeral.EphemeralStore;
import dev.nacre.naming.model.Instance;
import dev.nacre.naming.registry.RegistryIndex;
import dev.nacre.proto.peer.DistroBatch;
import dev.nacre.proto.peer.DistroRecord;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One Distro batch of ephemeral instances between two members, both ends: {@code encode} turns
 * the owner's instances into the peer message's bytes ({@link EphemeralInstanceCodec} per record,
 * then the protobuf {@code DistroBatch}); {@code apply} parses those bytes on the peer and puts
 * every record into its store as a replica, as the Distro handler does
 * ({@link EphemeralInstanceCodec#decode}, then {@link EphemeralStore#putReplica}, which updates the
 * registry index). Every ephemeral registration crosses this path once per peer, and a joining or
 * restarted member receives whole stores of it.
 *
 * <p>The peer already holds the records (steady replication): {@code apply} alternates between
 * two batches that differ in every weight, so each call replaces all of them with changed values.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DistroBatchBenchmark {
  private static final String OWNER = "node-2";

  @Param({"1000"})
  public int records;

  private List<Instance> owned;
  private byte[][] wire;
  private EphemeralStore peerStore;
  private int applied;

  @Setup
  public void setUp() {
    owned = instances(2.0);
    byte[] changed = encode();
    owned = instances(1.0);
    wire = new byte[][] {changed, encode()};
    peerStore = new EphemeralStore("node-1", Clock.systemUTC(), new RegistryIndex());
    apply(); // the peer starts with every record; each measured apply then changes them all
  }

  private List<Instance> instances(double weight) {
    List<Instance> all = new ArrayList<>(records);
    for (int n = 0; n < records; n++) {
      all.add(Fixtures.instance(n, weight, true));
    }
    return all;
  }

  @Benchmark
  public byte[] encode() {
    DistroBatch.Builder batch = DistroBatch.newBuilder().setSender(OWNER).setSequence(1);
    long revision = 1;
    for (Instance i : owned) {
      batch.addRecords(DistroRecord.newBuilder()
          .setKey(DistroKeys.instanceKey(i.key()))
          .setOwner(OWNER)
          .setRevision(revision++)
          .setValue(ByteString.copyFrom(EphemeralInstanceCodec.encode(i))));
    }
    return batch.build().toByteArray();
  }

  @Benchmark
  public int apply() {
    DistroBatch batch;
    try {
      batch = DistroBatch.parseFrom(wire[applied++ & 1]);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the benchmark's own batch does not parse", e);
    }
    for (DistroRecord r : batch.getRecordsList()) {
      Instance instance = EphemeralInstanceCodec.decode(r.getKey(), r.getValue().toByteArray());
      peerStore.putReplica(instance, r.getOwner(), r.getRevision());
    }
    return batch.getRecordsCount();
  }
}
