package org.loommpm.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpData;
import io.netty.handler.codec.http.multipart.HttpDataFactory;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import io.netty.util.CharsetUtil;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's side of toolkit.sh (issue 54's cost rows), in the HTTP/1.1 pipeline between the
 * WebSocket switch and the hello handler; every other request passes through untouched.
 *
 * <p>{@code GET /json}: a new {@link Toolkit.Message} per request serialised with the shared Jackson
 * mapper into a byte array, wrapped ({@code Unpooled.wrappedBuffer}) into a full response with
 * Content-Type and Content-Length, written, and flushed once per read batch by the hello handler
 * behind it: the shape of TechEmpower's Netty app (which serialises with jsoniter and adds Server
 * and Date; this one, like the plaintext handler, sends what Netty sends by default: neither).
 *
 * <p>{@code POST /upload}: Netty's own multipart decoder as its {@code http/upload} example uses
 * it: an {@link HttpPostRequestDecoder} per request over a shared {@link DefaultHttpDataFactory}
 * that keeps a part in memory up to 16 KiB ({@code MINSIZE}) and spools a larger one to
 * {@link Toolkit#uploadDir()}, each {@code HttpContent} {@linkplain HttpPostRequestDecoder#offer
 * offered} as it arrives and each completed part taken with {@code hasNext()}/{@code next()},
 * then released (which deletes its file; the example releases too, but a part left on the decoder's
 * clean-up list is released again by {@code destroy()}, so it is taken off first). The decoder hands over whole parts, so a part's SHA-256
 * is computed reading it back (from memory, or from its file 64 KiB at a time), on the event loop
 * as the example reads its parts. Limits: {@link Toolkit}'s, through the factory's
 * {@code maxLimit} (per part), the decoder's {@code maxFields} and {@code maxBufferedBytes}, and a
 * count of the body's bytes here (413 above {@link Toolkit#MAX_REQUEST_BYTES}).
 */
final class NettyToolkit {
    private static final HttpDataFactory FACTORY = factory();

    private NettyToolkit() {
    }

    private static HttpDataFactory factory() {
        DefaultHttpDataFactory f = new DefaultHttpDataFactory(Toolkit.MEMORY_THRESHOLD_BYTES);
        f.setBaseDir(Toolkit.uploadDir().toString());
        // The example sets deleteOnExit; every file here is deleted when its part is released or
        // the decoder destroyed, and a JVM-lifetime list of 10 MB uploads' names would only grow.
        f.setDeleteOnExit(false);
        f.setMaxLimit(Toolkit.MAX_PART_BYTES);
        return f;
    }

    /** The handler: one per connection (it holds the request in progress). */
    static final class Handler extends ChannelInboundHandlerAdapter {
        private static final int PASS = 0;
        private static final int JSON = 1;
        private static final int UPLOAD = 2;

        private int state = PASS;
        private boolean keepAlive;
        private boolean http10;
        private HttpPostRequestDecoder decoder;
        private long received;
        private List<Toolkit.PartDigest> parts;
        private HttpResponseStatus failed;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest req) {
                state = route(req);
                if (state != PASS) {
                    keepAlive = HttpUtil.isKeepAlive(req);
                    http10 = !req.protocolVersion().isKeepAliveDefault();
                }
                if (state == UPLOAD) {
                    start(req);
                }
            }
            if (state == PASS) {
                ctx.fireChannelRead(msg);
                return;
            }
            try {
                if (state == UPLOAD && msg instanceof HttpContent content) {
                    offer(content);
                }
                if (msg instanceof LastHttpContent) {
                    if (state == JSON) {
                        respond(ctx, HttpResponseStatus.OK, Toolkit.helloJson());
                    } else {
                        finish(ctx);
                    }
                    state = PASS;
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private static int route(HttpRequest req) {
            String uri = req.uri();
            int q = uri.indexOf('?');
            String path = q < 0 ? uri : uri.substring(0, q);
            if (path.equals(Toolkit.JSON_PATH) && req.method() == HttpMethod.GET) {
                return JSON;
            }
            if (path.equals(Toolkit.UPLOAD_PATH) && req.method() == HttpMethod.POST) {
                return UPLOAD;
            }
            return PASS;
        }

        private void start(HttpRequest req) {
            received = 0;
            parts = new ArrayList<>();
            failed = null;
            if (!HttpPostRequestDecoder.isMultipart(req)) {
                failed = HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE;
            } else if (HttpUtil.getContentLength(req, -1L) > Toolkit.MAX_REQUEST_BYTES) {
                failed = HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
            } else {
                try {
                    decoder = new HttpPostRequestDecoder(FACTORY, req, CharsetUtil.UTF_8, Toolkit.MAX_PARTS,
                            Toolkit.MAX_PART_HEADER_BYTES);
                } catch (DecoderException e) {
                    failed = HttpResponseStatus.BAD_REQUEST;
                }
            }
        }

        /** Offers a chunk and takes the parts it completed; after a failure the rest is discarded. */
        private void offer(HttpContent content) {
            if (failed != null) {
                return;
            }
            received += content.content().readableBytes();
            if (received > Toolkit.MAX_REQUEST_BYTES) {
                fail(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
                return;
            }
            try {
                decoder.offer(content);
                while (decoder.hasNext()) {
                    InterfaceHttpData data = decoder.next();
                    if (data != null) {
                        // Taken out of the decoder's clean-up list, then released here (which
                        // deletes its file): released twice, the decoder's destroy() would throw.
                        decoder.removeHttpDataFromClean(data);
                        try {
                            parts.add(digest((HttpData) data));
                        } finally {
                            data.release();
                        }
                    }
                }
            } catch (HttpPostRequestDecoder.EndOfDataDecoderException end) {
                // every part taken
            } catch (HttpPostRequestDecoder.TooLongFormFieldException | HttpPostRequestDecoder.TooManyFormFieldsException e) {
                fail(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
            } catch (DecoderException e) {
                // A part over the factory's maxLimit surfaces as an IOException "Size exceed ..."
                boolean tooBig = e.getCause() instanceof IOException io && io.getMessage() != null
                        && io.getMessage().contains("exceed");
                fail(tooBig ? HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE : HttpResponseStatus.BAD_REQUEST);
            } catch (IOException e) {
                fail(HttpResponseStatus.INTERNAL_SERVER_ERROR);
            }
        }

        private void fail(HttpResponseStatus status) {
            failed = status;
            destroy();
        }

        private void finish(ChannelHandlerContext ctx) {
            destroy();
            if (failed != null) {
                respond(ctx, failed, new byte[0]);
            } else {
                respond(ctx, HttpResponseStatus.OK, Toolkit.partsJson(parts));
            }
            parts = null;
        }

        private void destroy() {
            if (decoder != null) {
                decoder.destroy(); // releases what is left and deletes the remaining files
                decoder = null;
            }
        }

        /** A part's size and SHA-256: its bytes in memory, or its spooled file read 64 KiB at a time. */
        private static Toolkit.PartDigest digest(HttpData data) throws IOException {
            String filename = data instanceof FileUpload f ? f.getFilename() : null;
            if (data.isInMemory()) {
                ByteBuf buf = data.getByteBuf();
                MessageDigest md = Toolkit.sha256();
                md.update(buf.nioBuffer());
                return new Toolkit.PartDigest(data.getName(), filename, buf.readableBytes(), Toolkit.hex(md.digest()));
            }
            try (InputStream in = Files.newInputStream(data.getFile().toPath())) {
                return Toolkit.digest(data.getName(), filename, in);
            }
        }

        /** Written now, flushed with the read batch (by the hello handler behind this one). */
        private void respond(ChannelHandlerContext ctx, HttpResponseStatus status, byte[] body) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    body.length == 0 ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
            if (body.length > 0) {
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
            }
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            if (!keepAlive) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            } else {
                if (http10) {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
                }
                ctx.write(response, ctx.voidPromise());
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            destroy(); // a client gone mid-upload: its spooled files go too
            super.channelInactive(ctx);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            destroy();
        }
    }
}
