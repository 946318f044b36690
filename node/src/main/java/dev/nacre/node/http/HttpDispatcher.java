package dev.nacre.node.http;

import com.google.common.util.concurrent.RateLimiter;
import dev.nacre.node.ports.OpenConnections;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.ratis.thirdparty.io.netty.buffer.Unpooled;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelFutureListener;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandler.Sharable;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelOption;
import org.apache.ratis.thirdparty.io.netty.channel.SimpleChannelInboundHandler;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.DefaultFullHttpResponse;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.FullHttpRequest;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.FullHttpResponse;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpHeaderValues;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpUtil;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpVersion;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.QueryStringDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.TooLongHttpHeaderException;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.TooLongHttpLineException;
import org.apache.ratis.thirdparty.io.netty.handler.timeout.IdleStateEvent;
import org.apache.ratis.thirdparty.io.netty.util.AttributeKey;
import org.apache.ratis.thirdparty.io.netty.util.concurrent.Future;
import org.apache.ratis.thirdparty.io.netty.util.concurrent.GenericFutureListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a decoded request into an {@link ApiRequest}, runs its handler off the event loop (handlers
 * may wait for a Raft commit) and writes the answer. A request on a route that answers through a
 * future (whose handler only starts its work) starts on the event loop and is answered from the
 * future: no worker waits for another member or for a commit. A connection has one request in
 * flight: its pipelined requests wait in order (reading pauses at
 * {@value #MAX_QUEUED_PER_CONNECTION}), so answers keep the requests' order. Counts connections
 * against the cap and closes idle ones.
 * Every failure becomes a status with a message; nothing a client sends can kill the connection
 * handler or the node.
 *
 * <p>The {@link HttpGate} sees every request before anything else and every answer before it is
 * written: a reset one resets the connection (RST, no response bytes), a held one is handled or
 * written later from the connection's event loop, without blocking it.
 */
@Sharable
final class HttpDispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger log = LoggerFactory.getLogger(HttpDispatcher.class);

  private final Router router;
  private final Function<ApiRequest, ExecutorService> workers;
  private final String self;
  private final HttpGate gate;
  private final int maxConnections;
  private final int maxConnectionsPerIp;
  private final int writesPerSecondPerIp;
  private final AtomicInteger open = new AtomicInteger();
  private final OpenConnections<InetAddress> openPerIp = new OpenConnections<>();
  /** Write allowance of each IP with an open connection (gone with its last connection). */
  private final Map<InetAddress, RateLimiter> writesPerIp = new ConcurrentHashMap<>();

  /** Pipelined requests held per connection before it stops reading. */
  static final int MAX_QUEUED_PER_CONNECTION = 16;
  private static final AttributeKey<InOrder> IN_ORDER = AttributeKey.valueOf("nacre.http.in-order");

  /** A connection's requests not yet answered; touched only on its event loop. */
  private static final class InOrder {
    final ArrayDeque<FullHttpRequest> queue = new ArrayDeque<>();
    boolean busy;
  }

  /** @param workers the pool that runs a request's handler, unless its route answers through a future */
  HttpDispatcher(Router router, Function<ApiRequest, ExecutorService> workers, String self, HttpGate gate,
      HttpLimits limits) {
    this.router = router;
    this.maxConnectionsPerIp = limits.maxConnectionsPerIp();
    this.writesPerSecondPerIp = limits.writesPerSecondPerIp();
    this.workers = workers;
    this.self = self;
    this.gate = gate;
    this.maxConnections = limits.maxConnections();
  }

  /** One connection over the cap gets 503 and is closed; the others wait for their first request. */
  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    super.channelActive(ctx);
    InetAddress ip = remoteIp(ctx);
    int fromIp = ip == null ? 0 : openPerIp.opened(ip);
    if (open.incrementAndGet() > maxConnections) {
      refuse(ctx, "too many connections to server " + self + " (" + maxConnections
          + " open); retry later, close idle connections, or raise nacre.http.max-connections");
    } else if (maxConnectionsPerIp > 0 && fromIp > maxConnectionsPerIp) {
      refuse(ctx, "too many connections from " + ip.getHostAddress() + " to server " + self + " ("
          + maxConnectionsPerIp + " open); close idle connections or raise nacre.http.max-connections-per-ip");
    }
  }

  private void refuse(ChannelHandlerContext ctx, String why) {
    ctx.channel().config().setAutoRead(false); // nothing it sends is served
    log.warn("[{}] refusing an HTTP connection from {}: {}", self, ctx.channel().remoteAddress(), why);
    writeNow(ctx, ApiResponse.error(503, why), false);
  }

  private static InetAddress remoteIp(ChannelHandlerContext ctx) {
    return ctx.channel().remoteAddress() instanceof InetSocketAddress a ? a.getAddress() : null;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    open.decrementAndGet();
    InetAddress ip = remoteIp(ctx);
    if (ip != null) {
      if (openPerIp.closed(ip)) {
        writesPerIp.remove(ip);
      }
    }
    InOrder pending = ctx.channel().attr(IN_ORDER).getAndSet(null);
    if (pending != null) {
      pending.queue.forEach(FullHttpRequest::release);
      pending.queue.clear();
    }
    super.channelInactive(ctx);
  }

  /** Neither a request nor an answer for the idle timeout: the connection goes. */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof IdleStateEvent) {
      log.debug("[{}] closing idle HTTP connection from {}", self, ctx.channel().remoteAddress());
      ctx.close();
    } else {
      super.userEventTriggered(ctx, event);
    }
  }

  /** Queues the request behind the connection's earlier ones; served once those are answered. */
  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    InOrder pending = ctx.channel().attr(IN_ORDER).get();
    if (pending == null) {
      pending = new InOrder();
      ctx.channel().attr(IN_ORDER).set(pending);
    }
    pending.queue.add(request.retain());
    if (pending.queue.size() >= MAX_QUEUED_PER_CONNECTION) {
      ctx.channel().config().setAutoRead(false); // read on once the client has taken its answers
    }
    if (!pending.busy) {
      serveNext(ctx, pending);
    }
  }

  /** On the connection's event loop: the next queued request, or reading on when none is left. */
  private void serveNext(ChannelHandlerContext ctx, InOrder pending) {
    FullHttpRequest next = pending.queue.poll();
    if (next == null) {
      pending.busy = false;
      ctx.channel().config().setAutoRead(true);
      return;
    }
    pending.busy = true;
    try {
      handle(ctx, next);
    } finally {
      next.release();
    }
  }

  /** On the event loop, once per request when its keep-alive answer is written: the next may go. */
  private void answered(ChannelHandlerContext ctx) {
    InOrder pending = ctx.channel().attr(IN_ORDER).get();
    if (pending != null) {
      serveNext(ctx, pending);
    }
  }

  private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
    HttpGate.Decision d = gate.decide(HttpGate.Stage.REQUEST, ctx.channel().remoteAddress());
    switch (d.action()) {
      case PASS -> serve(ctx, request);
      case RESET -> reset(ctx);
      case HOLD -> {
        request.retain();
        ctx.executor().schedule(() -> {
          try {
            serve(ctx, request);
          } finally {
            request.release();
          }
        }, d.hold().toNanos(), TimeUnit.NANOSECONDS);
      }
    }
  }

  /** Ends the connection as a vanished process would: a TCP reset, no answer. */
  private static void reset(ChannelHandlerContext ctx) {
    ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
    ctx.close();
  }

  private void serve(ChannelHandlerContext ctx, FullHttpRequest request) {
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    if (!request.decoderResult().isSuccess()) {
      write(ctx, decodeFailure(request.decoderResult().cause()), false);
      return;
    }
    ApiRequest apiRequest;
    try {
      apiRequest = toApiRequest(request, ctx.channel().remoteAddress() instanceof InetSocketAddress from
          ? Optional.ofNullable(from.getAddress()) : Optional.empty()).withCloseHooks(hook -> onClose(ctx, hook));
    } catch (RuntimeException e) {
      write(ctx, Router.toResponse(e), keepAlive);
      return;
    }
    if (writesPerSecondPerIp > 0 && isWrite(apiRequest) && apiRequest.source().isPresent()
        && !writesPerIp.computeIfAbsent(apiRequest.source().get(), ip -> RateLimiter.create(writesPerSecondPerIp))
            .tryAcquire()) {
      write(ctx, ApiResponse.error(503, "over threshold: " + apiRequest.source().get().getHostAddress()
          + " sent more than " + writesPerSecondPerIp + " writes a second to server " + self
          + " (nacre.http.writes-per-second-per-ip); slow down and retry"), keepAlive);
      return;
    }
    if (router.answersAsync(apiRequest)) {
      router.serveAsync(apiRequest).thenAccept(response -> write(ctx, response, keepAlive));
      return;
    }
    try {
      workers.apply(apiRequest).execute(() -> write(ctx, router.serve(apiRequest), keepAlive));
    } catch (RejectedExecutionException e) {
      write(ctx, ApiResponse.error(503, "server is overloaded or shutting down; retry later"), false);
    }
  }

  /** Runs {@code hook} when the connection closes; returns what removes it. */
  private static Runnable onClose(ChannelHandlerContext ctx, Runnable hook) {
    GenericFutureListener<Future<? super Void>> listener = closed -> hook.run();
    ctx.channel().closeFuture().addListener(listener);
    return () -> ctx.channel().closeFuture().removeListener(listener);
  }

  /** A request that changes the registry; beats only keep instances alive and are not counted. */
  private static boolean isWrite(ApiRequest request) {
    String method = request.method();
    // A config long poll (POST) only waits for changes.
    return !method.equals("GET") && !method.equals("HEAD") && !request.path().endsWith("/instance/beat")
        && !request.path().endsWith("/cs/configs/listener");
  }

  private static ApiResponse decodeFailure(Throwable cause) {
    if (cause instanceof TooLongHttpLineException) {
      return ApiResponse.error(414, "request line too long: send parameters in a form body"
          + " (Content-Type: application/x-www-form-urlencoded) instead of the query string");
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return ApiResponse.error(431, "request headers too large");
    }
    return ApiResponse.error(400, "malformed HTTP request: " + cause.getMessage());
  }

  private static ApiRequest toApiRequest(FullHttpRequest request, Optional<InetAddress> source) {
    QueryStringDecoder uri;
    Map<String, List<String>> params = new LinkedHashMap<>();
    String body = request.content().toString(StandardCharsets.UTF_8);
    try {
      uri = new QueryStringDecoder(request.uri(), StandardCharsets.UTF_8);
      params.putAll(uri.parameters());
      String contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
      if (contentType.startsWith(HttpHeaderValues.APPLICATION_X_WWW_FORM_URLENCODED.toString())
          && !body.isEmpty()) {
        new QueryStringDecoder(body, StandardCharsets.UTF_8, false)
            .parameters()
            .forEach((k, v) -> params.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
      }
    } catch (IllegalArgumentException e) {
      throw HttpError.badRequest("malformed URL or form encoding: " + e.getMessage());
    }
    Map<String, String> headers = new LinkedHashMap<>();
    request.headers().forEach(h -> headers.putIfAbsent(h.getKey(), h.getValue()));
    return new ApiRequest(request.method().name(), uri.path(), params, body, source)
        .withAccessToken(accessToken(request)).withHeaders(headers);
  }

  /** Nacos' places for a client's token, in its order: {@code Authorization: Bearer}, then {@code accessToken}. */
  private static Optional<String> accessToken(FullHttpRequest request) {
    String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.of(authorization.substring(7).trim()).filter(t -> !t.isEmpty());
    }
    return Optional.ofNullable(request.headers().get("accessToken")).map(String::trim).filter(t -> !t.isEmpty());
  }

  private void write(ChannelHandlerContext ctx, ApiResponse response, boolean keepAlive) {
    HttpGate.Decision d = gate.decide(HttpGate.Stage.ANSWER, ctx.channel().remoteAddress());
    switch (d.action()) {
      case PASS -> writeNow(ctx, response, keepAlive);
      case RESET -> reset(ctx);
      case HOLD -> ctx.executor().schedule(
          () -> writeNow(ctx, response, keepAlive), d.hold().toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private void writeNow(ChannelHandlerContext ctx, ApiResponse response, boolean keepAlive) {
    FullHttpResponse http = new DefaultFullHttpResponse(
        HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(response.status()), Unpooled.wrappedBuffer(response.body()));
    http.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
    response.headers().forEach((name, value) -> http.headers().set(name, value));
    HttpUtil.setContentLength(http, response.body().length);
    if (keepAlive) {
      http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      // The listener runs on the event loop: no extra hand-off to serve the next request.
      ctx.writeAndFlush(http).addListener(written -> answered(ctx));
    } else {
      http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug("closing HTTP connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
