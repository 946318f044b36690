package dev.nacre.naming.support;

import dev.nacre.consensus.raft.Outcome;
import dev.nacre.consensus.raft.ReplicatedStateMachine;
import dev.nacre.consensus.state.DomainStateMachine;
import dev.nacre.naming.persistent.AuthRecords;
import dev.nacre.naming.persistent.PersistentNaming;
import dev.nacre.naming.registry.RegistryIndex;
import java.nio.file.Path;
import java.util.List;

/**
 * The node's state machine with naming as its only domain, taking naming's operations as naming
 * submits them (unmarked): marks each with naming's kind, as the node's log view does.
 */
public final class NamingMachine implements ReplicatedStateMachine, AutoCloseable {
  private final PersistentNaming naming;
  private final DomainStateMachine machine;

  private NamingMachine(PersistentNaming naming, DomainStateMachine machine) {
    this.naming = naming;
    this.machine = machine;
  }

  /** Opens (or creates) the database in {@code dir} and loads it into {@code index}. */
  public static NamingMachine open(Path dir, RegistryIndex index) {
    PersistentNaming naming = new PersistentNaming(index);
    return new NamingMachine(naming, DomainStateMachine.open(dir, List.of(naming)));
  }

  public AuthRecords authRecords() {
    return naming.authRecords();
  }

  @Override
  public List<Outcome> apply(long index, List<byte[]> operations) {
    return machine.apply(index, operations.stream().map(NamingMachine::marked).toList());
  }

  private static byte[] marked(byte[] operation) {
    byte[] marked = new byte[operation.length + 1];
    marked[0] = PersistentNaming.KIND;
    System.arraycopy(operation, 0, marked, 1, operation.length);
    return marked;
  }

  @Override
  public long lastAppliedIndex() {
    return machine.lastAppliedIndex();
  }

  @Override
  public long lastAppliedTerm() {
    return machine.lastAppliedTerm();
  }

  @Override
  public void setCurrentTerm(long term) {
    machine.setCurrentTerm(term);
  }

  @Override
  public void writeSnapshot(Path emptyDir) {
    machine.writeSnapshot(emptyDir);
  }

  @Override
  public void installSnapshot(Path snapshotDir) {
    machine.installSnapshot(snapshotDir);
  }

  @Override
  public void close() {
    machine.close();
  }
}
