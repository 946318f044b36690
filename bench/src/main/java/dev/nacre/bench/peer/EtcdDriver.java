package dev.nacre.bench.peer;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * etcd through jetcd 0.8.6, one client (one gRPC channel) per client. An instance is the key
 * {@code /services/<service>/<ip:port>} with a small JSON value: a plain put when persistent, a
 * put bound to the client's one lease (kept alive, as a registry client would) when ephemeral.
 * A query is one prefix range get, etcd's default linearizable read (it goes through the leader's
 * read index).
 */
final class EtcdDriver implements RegistryDriver {
  private static final long TIMEOUT_S = 10;
  private static final long LEASE_TTL_S = 60;
  private final Client client;
  private final KV kv;
  private final long leaseId;
  private final CloseableClient keepAlive;

  EtcdDriver(String hostPort) throws Exception {
    this.client = Client.builder().endpoints("http://" + hostPort).build();
    this.kv = client.getKVClient();
    this.leaseId = client.getLeaseClient().grant(LEASE_TTL_S).get(TIMEOUT_S, TimeUnit.SECONDS).getID();
    this.keepAlive = client.getLeaseClient().keepAlive(leaseId, new StreamObserver<LeaseKeepAliveResponse>() {
      @Override
      public void onNext(LeaseKeepAliveResponse value) {
      }

      @Override
      public void onError(Throwable t) {
        System.out.println("etcd lease " + leaseId + " keep-alive failed: " + t);
      }

      @Override
      public void onCompleted() {
      }
    });
  }

  @Override
  public void register(Instance i) throws Exception {
    PutOption option = i.ephemeral() ? PutOption.builder().withLeaseId(leaseId).build() : PutOption.DEFAULT;
    kv.put(bytes(key(i)), ByteSequence.from(i.payload()), option).get(TIMEOUT_S, TimeUnit.SECONDS);
  }

  @Override
  public void deregister(Instance i) throws Exception {
    kv.delete(bytes(key(i))).get(TIMEOUT_S, TimeUnit.SECONDS);
  }

  @Override
  public Set<String> query(String service) throws Exception {
    String prefix = "/services/" + service + "/";
    Set<String> addresses = new HashSet<>();
    GetOption prefixed = GetOption.builder().isPrefix(true).build();
    for (KeyValue entry : kv.get(bytes(prefix), prefixed).get(TIMEOUT_S, TimeUnit.SECONDS).getKvs()) {
      addresses.add(entry.getKey().toString(StandardCharsets.UTF_8).substring(prefix.length()));
    }
    return addresses;
  }

  private static String key(Instance i) {
    return "/services/" + i.service() + "/" + i.address();
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    keepAlive.close();
    client.close();
  }
}
