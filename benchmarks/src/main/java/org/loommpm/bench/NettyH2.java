package org.loommpm.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.function.Consumer;

/**
 * Netty 4.2's HTTP/2 hello world, the frame-codec shape of Netty's own examples: an
 * {@code Http2FrameCodec} and one handler on the connection's channel answering each stream
 * with a HEADERS and a DATA frame, flushed once per read batch. Cleartext HTTP/2 by prior
 * knowledge (what h2load sends to {@code http://}); a connection that does not start with the
 * preface gets the HTTP/1.1 pipeline instead, so the HTTP/1.1 rows are unaffected. {@code h2c}
 * upgrade is not wired (the benchmark's clients do not use it).
 */
final class NettyH2 {
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();
    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(BenchServer.HELLO.length).writeBytes(BenchServer.HELLO).asReadOnly());

    private NettyH2() {
    }

    /** Chooses HTTP/2 or HTTP/1.1 from a connection's first bytes, then removes itself. */
    static final class PrefaceDetector extends ByteToMessageDecoder {
        private final Consumer<ChannelPipeline> http1;

        PrefaceDetector(Consumer<ChannelPipeline> http1) {
            this.http1 = http1;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            int n = Math.min(in.readableBytes(), PREFACE.readableBytes());
            if (!io.netty.buffer.ByteBufUtil.equals(in, in.readerIndex(), PREFACE, 0, n)) {
                http1.accept(ctx.pipeline());
                ctx.pipeline().remove(this);
            } else if (n == PREFACE.readableBytes()) {
                ctx.pipeline().addAfter(ctx.name(), null, new Hello());
                ctx.pipeline().addAfter(ctx.name(), null, Http2FrameCodecBuilder.forServer().build());
                ctx.pipeline().remove(this);
            }
        }
    }

    /** Answers every stream once its request has ended. */
    static final class Hello extends ChannelDuplexHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h) {
                if (h.isEndStream()) {
                    respond(ctx, h.stream());
                }
            } else if (msg instanceof Http2DataFrame d) {
                int consumed = d.initialFlowControlledBytes();
                Http2FrameStream stream = d.stream();
                boolean end = d.isEndStream();
                d.release();
                if (consumed > 0) {
                    ctx.write(new DefaultHttp2WindowUpdateFrame(consumed).stream(stream));
                }
                if (end) {
                    respond(ctx, stream);
                }
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        private static void respond(ChannelHandlerContext ctx, Http2FrameStream stream) {
            Http2Headers headers = new DefaultHttp2Headers().status("200")
                    .set("content-type", BenchServer.CONTENT_TYPE)
                    .setInt("content-length", BenchServer.HELLO.length);
            ctx.write(new DefaultHttp2HeadersFrame(headers).stream(stream));
            ctx.write(new DefaultHttp2DataFrame(BODY.duplicate(), true).stream(stream));
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** JDK SSLEngine (as loom-mpm and Helidon use), ALPN offering h2 then http/1.1. */
    static io.netty.handler.ssl.SslContext sslContext(BenchTls tls) throws javax.net.ssl.SSLException {
        return io.netty.handler.ssl.SslContextBuilder.forServer(tls.key(), tls.chain())
                .sslProvider(io.netty.handler.ssl.SslProvider.JDK)
                .applicationProtocolConfig(new io.netty.handler.ssl.ApplicationProtocolConfig(
                        io.netty.handler.ssl.ApplicationProtocolConfig.Protocol.ALPN,
                        io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        "h2", "http/1.1"))
                .build();
    }

    /** After the TLS handshake: the HTTP/2 or HTTP/1.1 pipeline, as ALPN chose. */
    static final class Alpn extends io.netty.handler.ssl.ApplicationProtocolNegotiationHandler {
        private final Consumer<ChannelPipeline> http1;

        Alpn(Consumer<ChannelPipeline> http1) {
            super("http/1.1");
            this.http1 = http1;
        }

        @Override
        protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
            if ("h2".equals(protocol)) {
                ctx.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(), new Hello());
            } else {
                http1.accept(ctx.pipeline());
            }
        }
    }

    /** The HTTP/1.1 pipeline for connections without the preface. */
    static Consumer<ChannelPipeline> http1(java.util.function.Supplier<io.netty.channel.ChannelHandler> hello) {
        return p -> p.addLast(new HttpServerCodec(), hello.get());
    }
}
