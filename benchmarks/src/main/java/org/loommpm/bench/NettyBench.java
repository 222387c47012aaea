package org.loommpm.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.handler.codec.http.websocketx.extensions.compression.WebSocketServerCompressionHandler;
import java.util.concurrent.TimeUnit;

/**
 * Netty 4.2's hello-world shape: {@link HttpServerCodec} plus one handler writing a prebuilt
 * response (shared header blocks and an unreleasable body buffer), flushing once per read
 * batch so pipelined requests share a write. Native epoll transport when it loads, else NIO; one worker event loop per available
 * processor ({@link BenchServer#ioThreads()}), a boss loop accepting.
 * No idle timeout (connections stay until the client closes them). Cleartext HTTP/2 (prior
 * knowledge) on the same port: {@link NettyH2}. {@code GET /slow} answers
 * through the event loop's scheduler after the pause: blocking an event loop would be a misuse
 * of Netty, and a scheduled reply is how a Netty application waits without a thread.
 */
final class NettyBench {
    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(BenchServer.HELLO.length).writeBytes(BenchServer.HELLO).asReadOnly());
    private static final HttpHeaders OK_KEEP_ALIVE = headers(BenchServer.HELLO.length, null);
    private static final HttpHeaders OK_KEEP_ALIVE_10 = headers(BenchServer.HELLO.length, HttpHeaderValues.KEEP_ALIVE);
    private static final HttpHeaders OK_CLOSE = headers(BenchServer.HELLO.length, HttpHeaderValues.CLOSE);
    private static final HttpHeaders EMPTY_KEEP_ALIVE = headers(0, null);
    private static final HttpHeaders EMPTY_KEEP_ALIVE_10 = headers(0, HttpHeaderValues.KEEP_ALIVE);
    private static final HttpHeaders EMPTY_CLOSE = headers(0, HttpHeaderValues.CLOSE);

    private NettyBench() {
    }

    private static HttpHeaders headers(int length, CharSequence connection) {
        HttpHeaders h = new DefaultHttpHeaders();
        if (length > 0) {
            h.set(HttpHeaderNames.CONTENT_TYPE, BenchServer.CONTENT_TYPE);
        }
        h.set(HttpHeaderNames.CONTENT_LENGTH, length);
        if (connection != null) {
            h.set(HttpHeaderNames.CONNECTION, connection);
        }
        return h;
    }

    static String start(int port) throws InterruptedException, java.io.IOException {
        BenchTls tls = BenchTls.fromEnv();
        io.netty.handler.ssl.SslContext ssl = tls == null ? null : NettyH2.sslContext(tls);
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        // One event loop per core the process may use (Netty's default is 2 x that, meant for
        // hyper-threads on a whole machine; on a one-core pin it means two loops time-slicing it).
        // BENCH_IO_THREADS overrides the count, for the A/B in docs/benchmarks/log/2026-11-25-1.md.
        int loops = BenchServer.ioThreads();
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, io);
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(loops, io);
        new ServerBootstrap()
                .group(boss, workers)
                .channel(channel)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (ssl != null) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc()), new NettyH2.Alpn(NettyH2.http1(NettyBench::helloPipeline)));
                        } else {
                            ch.pipeline().addLast(new NettyH2.PrefaceDetector(NettyH2.http1(NettyBench::helloPipeline)));
                        }
                    }
                })
                .bind(BenchServer.bindAddress(), port)
                .sync();
        return loops + " event loop(s), " + (epoll ? "epoll transport" : "NIO transport (epoll unavailable: " + Epoll.unavailabilityCause() + ")")
                + (ssl != null ? ", TLS (JDK SSLEngine)" : "");
    }

    /**
     * Sends a request for {@link BenchServer#WS_PATH} into the pipeline of Netty's WebSocket server
     * example (HttpObjectAggregator, WebSocketServerCompressionHandler for permessage-deflate,
     * WebSocketServerProtocolHandler, an echo handler), in place of the hello handler; other
     * requests pass through untouched, so the HTTP benchmarks keep their pipeline.
     */
    static final class WsSwitch extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest req && req.uri().startsWith(BenchServer.WS_PATH)) {
                var p = ctx.pipeline();
                // Each is added right after this handler: in reverse order.
                p.addAfter(ctx.name(), null, new WsEcho());
                p.addAfter(ctx.name(), null, new WebSocketServerProtocolHandler(BenchServer.WS_PATH, null, true));
                p.addAfter(ctx.name(), null, new WebSocketServerCompressionHandler(0));
                p.addAfter(ctx.name(), null, new HttpObjectAggregator(65_536));
                p.remove(NettyToolkit.Handler.class);
                p.remove(HelloHandler.class);
                p.remove(this);
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** The example's frame handler, echoing: the frame is retained into the write, flushed per read batch. */
    static final class WsEcho extends SimpleChannelInboundHandler<WebSocketFrame> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, WebSocketFrame frame) {
            if (frame instanceof TextWebSocketFrame || frame instanceof BinaryWebSocketFrame) {
                ctx.write(frame.retain(), ctx.voidPromise());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /**
     * The HTTP/1.1 handlers behind the codec: the WebSocket switch, toolkit.sh's {@code /json} and
     * {@code /upload} ({@link NettyToolkit}), then hello.
     */
    static io.netty.channel.ChannelHandler helloPipeline() {
        return new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
            @Override
            protected void initChannel(io.netty.channel.Channel ch) {
                ch.pipeline().addLast(new WsSwitch(), new NettyToolkit.Handler(), new HelloHandler());
            }
        };
    }

    /** Answers when the request's last content arrives, so a POST body is read and discarded first. */
    private static final class HelloHandler extends ChannelInboundHandlerAdapter {
        private boolean keepAlive = true;
        private boolean http10;
        private HttpResponseStatus status = HttpResponseStatus.OK;
        private boolean slow;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest req) {
                    keepAlive = HttpUtil.isKeepAlive(req);
                    http10 = !req.protocolVersion().isKeepAliveDefault();
                    String uri = req.uri();
                    int q = uri.indexOf('?');
                    String path = q < 0 ? uri : uri.substring(0, q);
                    HttpMethod m = req.method();
                    slow = path.equals(BenchServer.SLOW_PATH) && m == HttpMethod.GET;
                    if (slow) {
                        status = HttpResponseStatus.OK;
                    } else if (!BenchServer.servedPath(path)) {
                        status = HttpResponseStatus.NOT_FOUND;
                    } else if (m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.POST) {
                        status = HttpResponseStatus.OK;
                    } else {
                        status = HttpResponseStatus.METHOD_NOT_ALLOWED;
                    }
                }
                if (msg instanceof LastHttpContent) {
                    if (slow) {
                        // Captured now: the fields belong to the next request by the time it fires.
                        // (A pipelined request behind a slow one would be answered first; the
                        // benchmark's clients do not pipeline /slow.)
                        boolean ka = keepAlive;
                        boolean h10 = http10;
                        ctx.executor().schedule(() -> {
                            respond(ctx, HttpResponseStatus.OK, ka, h10);
                            ctx.flush();
                        }, BenchServer.SLOW.toNanos(), TimeUnit.NANOSECONDS);
                    } else {
                        respond(ctx, status, keepAlive, http10);
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, boolean keepAlive,
                boolean http10) {
            boolean ok = status == HttpResponseStatus.OK;
            HttpHeaders h = !keepAlive ? (ok ? OK_CLOSE : EMPTY_CLOSE)
                    : http10 ? (ok ? OK_KEEP_ALIVE_10 : EMPTY_KEEP_ALIVE_10)
                    : (ok ? OK_KEEP_ALIVE : EMPTY_KEEP_ALIVE);
            var response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    ok ? BODY.duplicate() : Unpooled.EMPTY_BUFFER, h, EmptyHttpHeaders.INSTANCE);
            if (keepAlive) {
                ctx.write(response, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
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
}
