package dev.nacre.node.http;

import org.apache.ratis.thirdparty.io.netty.buffer.Unpooled;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelFutureListener;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.DefaultFullHttpResponse;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.FullHttpMessage;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.FullHttpResponse;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpHeaderNames;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpHeaderValues;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpMessage;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpObjectAggregator;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpUtil;
import org.apache.ratis.thirdparty.io.netty.handler.codec.http.HttpVersion;

/**
 * Netty's aggregator, except that a body over the limit gets 413 with a message in Nacos' format
 * (Netty's has no body). As in Netty, the rest of that body is read and dropped on a keep-alive
 * connection (so the client can read the answer), and any other connection closes.
 */
final class BoundedBodyAggregator extends HttpObjectAggregator {
  BoundedBodyAggregator(int maxBodyBytes) {
    super(maxBodyBytes);
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    ApiResponse answer = ApiResponse.error(413, "request body larger than " + maxContentLength()
        + " bytes; send less, or raise nacre.http.max-body-bytes on the server");
    FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
        HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Unpooled.wrappedBuffer(answer.body()));
    http.headers().set(HttpHeaderNames.CONTENT_TYPE, answer.contentType());
    HttpUtil.setContentLength(http, answer.body().length);
    boolean keepReading = !(oversized instanceof FullHttpMessage) && HttpUtil.isKeepAlive(oversized);
    if (keepReading) {
      ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    } else {
      http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
    }
  }
}
