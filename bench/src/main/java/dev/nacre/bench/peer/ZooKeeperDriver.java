package dev.nacre.bench.peer;

import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * ZooKeeper through its stock client, one session per client. An instance is the znode
 * {@code /services/<service>/<ip:port>} holding a small JSON value: EPHEMERAL (bound to the
 * session) or PERSISTENT. A query is what a discovery client must do to learn a service's
 * instances and their data: {@code getChildren} of the service node, then {@code getData} of each
 * child (so 1 + n round trips; reads are served by the node the session is on).
 */
final class ZooKeeperDriver implements RegistryDriver {
  static final String ROOT = "/services";
  private final ZooKeeper zk;

  ZooKeeperDriver(String hostPort) throws IOException, InterruptedException {
    CountDownLatch connected = new CountDownLatch(1);
    this.zk = new ZooKeeper(hostPort, 30_000, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
        connected.countDown();
      }
    });
    if (!connected.await(30, TimeUnit.SECONDS)) {
      zk.close();
      throw new IOException("no ZooKeeper session with " + hostPort + " after 30 s: is the server up?");
    }
  }

  @Override
  public void register(Instance i) throws KeeperException, InterruptedException {
    zk.create(path(i), i.payload(), ZooDefs.Ids.OPEN_ACL_UNSAFE,
        i.ephemeral() ? CreateMode.EPHEMERAL : CreateMode.PERSISTENT);
  }

  @Override
  public void deregister(Instance i) throws KeeperException, InterruptedException {
    zk.delete(path(i), -1);
  }

  @Override
  public Set<String> query(String service) throws KeeperException, InterruptedException {
    String parent = ROOT + "/" + service;
    Set<String> addresses = new HashSet<>();
    for (String child : zk.getChildren(parent, false)) {
      try {
        byte[] data = zk.getData(parent + "/" + child, false, null);
        if (data != null && data.length > 0) {
          addresses.add(child);
        }
      } catch (KeeperException.NoNodeException e) {
        // deregistered between the two calls: not an instance any more
      }
    }
    return addresses;
  }

  /** The parent znodes (persistent, empty) of every service: ephemeral znodes cannot have children. */
  @Override
  public void prepare(Collection<String> services, boolean persistent) throws KeeperException, InterruptedException {
    createIfAbsent(ROOT);
    for (String service : services) {
      createIfAbsent(ROOT + "/" + service);
    }
  }

  private void createIfAbsent(String path) throws KeeperException, InterruptedException {
    try {
      zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // prepared by an earlier round
    }
  }

  private static String path(Instance i) {
    return ROOT + "/" + i.service() + "/" + i.address();
  }

  @Override
  public void close() {
    try {
      zk.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
