package dev.nacre.node.http;

import dev.nacre.node.ClientGate;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a decoded request into an {@link ApiRequest}, runs its handler off the event loop (handlers
 * may wait for a Raft commit) and writes the answer. Every failure becomes a status with a
 * message; nothing a client sends can kill the connection handler or the node.
 *
 * <p>The {@link ClientGate} sees every request before anything else and every answer before it is
 * written: a dropped one resets the connection (RST, no response bytes), a held one is handled or
 * written later from the connection's event loop, without blocking it.
 */
@Sharable
final class HttpDispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
  private static final Logger log = LoggerFactory.getLogger(HttpDispatcher.class);

  private final Router router;
  private final ExecutorService workers;
  private final String self;
  private final ClientGate gate;

  HttpDispatcher(Router router, ExecutorService workers, String self, ClientGate gate) {
    this.router = router;
    this.workers = workers;
    this.self = self;
    this.gate = gate;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    ClientGate.Decision d = gate.decide(self);
    switch (d.action()) {
      case PASS -> serve(ctx, request);
      case DROP -> reset(ctx);
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
      apiRequest = toApiRequest(request);
    } catch (RuntimeException e) {
      write(ctx, Router.toResponse(e), keepAlive);
      return;
    }
    try {
      workers.execute(() -> write(ctx, router.serve(apiRequest), keepAlive));
    } catch (RejectedExecutionException e) {
      write(ctx, ApiResponse.error(503, "server is overloaded or shutting down; retry later"), false);
    }
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

  private static ApiRequest toApiRequest(FullHttpRequest request) {
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
    return new ApiRequest(request.method().name(), uri.path(), params, body, false);
  }

  private void write(ChannelHandlerContext ctx, ApiResponse response, boolean keepAlive) {
    ClientGate.Decision d = gate.decide(self);
    switch (d.action()) {
      case PASS -> writeNow(ctx, response, keepAlive);
      case DROP -> reset(ctx);
      case HOLD -> ctx.executor().schedule(
          () -> writeNow(ctx, response, keepAlive), d.hold().toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private static void writeNow(ChannelHandlerContext ctx, ApiResponse response, boolean keepAlive) {
    FullHttpResponse http = new DefaultFullHttpResponse(
        HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(response.status()), Unpooled.wrappedBuffer(response.body()));
    http.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
    HttpUtil.setContentLength(http, response.body().length);
    if (keepAlive) {
      http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(http);
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
