package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;

/**
 * gRPC on loom-mpm: grpc-java's own client (its Netty transport, plaintext: h2c by prior
 * knowledge) calls plain loom-mpm handlers that speak the gRPC wire format with {@link GrpcWire}:
 * length-prefixed messages in the bodies, {@code content-type: application/grpc}, and the outcome
 * in the {@code grpc-status} and {@code grpc-message} response trailers. No protobuf: the methods
 * are hand-written {@link MethodDescriptor}s with a UTF-8 string marshaller. A unary call, a
 * server-streaming call whose messages reach the client one by one (the handler waits for the
 * client to have read the first before it writes the rest), a client-streaming call whose
 * messages the handler reads from the request body, a 1 MiB message each way, and error statuses
 * the client sees as {@link StatusRuntimeException}s.
 */
class GrpcOverH2cTest {
    private static final String SERVICE = "test.Greeter";
    private static final MethodDescriptor.Marshaller<String> UTF8 = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(String value) {
            return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String parse(InputStream stream) {
            try {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    private static final MethodDescriptor<String, String> SAY_HELLO = method("SayHello", MethodDescriptor.MethodType.UNARY);
    private static final MethodDescriptor<String, String> COUNT = method("Count", MethodDescriptor.MethodType.SERVER_STREAMING);
    private static final MethodDescriptor<String, String> JOIN = method("Join", MethodDescriptor.MethodType.CLIENT_STREAMING);
    private static final MethodDescriptor<String, String> FIND = method("Find", MethodDescriptor.MethodType.UNARY);
    private static final MethodDescriptor<String, String> MISSING = method("Missing", MethodDescriptor.MethodType.UNARY);

    /** Counted down by the test once it has read the first streamed message. */
    private static final CountDownLatch firstRead = new CountDownLatch(1);

    private static LoomServer server;
    private static ManagedChannel channel;

    private static MethodDescriptor<String, String> method(String name, MethodDescriptor.MethodType type) {
        return MethodDescriptor.<String, String>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
                .setRequestMarshaller(UTF8)
                .setResponseMarshaller(UTF8)
                .build();
    }

    @BeforeAll
    static void start() throws IOException {
        Router router = new Router()
                .post("/test.Greeter/SayHello", (req, res) -> {
                    GrpcWire.Call call = new GrpcWire.Call(req, res);
                    byte[] name = GrpcWire.read(req.body());
                    if (name == null || GrpcWire.read(req.body()) != null) {
                        call.fail(GrpcWire.INVALID_ARGUMENT, "a unary call takes one message");
                        return;
                    }
                    try (OutputStream out = res.outputStream()) {
                        String text = GrpcWire.text(name);
                        // A large request is answered with its length (and as large a message back).
                        GrpcWire.write(out, (text.length() > 1000 ? text.length() + ":" + text : "Hello, " + text)
                                .getBytes(StandardCharsets.UTF_8));
                    }
                })
                .post("/test.Greeter/Count", (req, res) -> {
                    GrpcWire.Call call = new GrpcWire.Call(req, res);
                    String[] ask = GrpcWire.text(GrpcWire.read(req.body())).split(":", 2);
                    int n = Integer.parseInt(ask[0]);
                    try (OutputStream out = res.outputStream()) {
                        for (int i = 1; i <= n; i++) {
                            GrpcWire.write(out, (ask[1] + i).getBytes(StandardCharsets.UTF_8));
                            out.flush(); // each message is on the wire as it is written
                            if (i == 1 && !firstRead.await(10, TimeUnit.SECONDS)) {
                                call.fail(13, "the client never saw the first message");
                                return;
                            }
                        }
                    }
                })
                .post("/test.Greeter/Join", (req, res) -> {
                    GrpcWire.Call call = new GrpcWire.Call(req, res);
                    List<String> parts = new ArrayList<>();
                    for (byte[] m = GrpcWire.read(req.body()); m != null; m = GrpcWire.read(req.body())) {
                        parts.add(GrpcWire.text(m));
                    }
                    try (OutputStream out = res.outputStream()) {
                        GrpcWire.write(out, (parts.size() + " " + String.join("+", parts)
                                + " trailers=" + req.trailers().size()).getBytes(StandardCharsets.UTF_8));
                    }
                })
                .post("/test.Greeter/Find", (req, res) -> {
                    GrpcWire.Call call = new GrpcWire.Call(req, res);
                    String key = GrpcWire.text(GrpcWire.read(req.body()));
                    call.fail(GrpcWire.NOT_FOUND, "no such key: " + key);
                })
                // What a gRPC server answers for a method it does not have: 200, status 12.
                .post("/{service}/{method}", (req, res) -> new GrpcWire.Call(req, res)
                        .fail(GrpcWire.UNIMPLEMENTED, "unknown method " + req.path()));
        server = LoomServer.builder().listen("127.0.0.1", 0).handler(router).start();
        channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.port(), InsecureChannelCredentials.create())
                .build();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.close();
    }

    private static CallOptions options() {
        return CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    @Test
    void unaryCall() {
        assertEquals("Hello, world", ClientCalls.blockingUnaryCall(channel, SAY_HELLO, options(), "world"));
        assertEquals("Hello, caf\u00e9", ClientCalls.blockingUnaryCall(channel, SAY_HELLO, options(), "caf\u00e9"));
    }

    @Test
    void aMessageOfOneMebibyteEachWay() {
        String big = "x".repeat(1 << 20);
        String answer = ClientCalls.blockingUnaryCall(channel, SAY_HELLO, options(), big);
        assertEquals((1 << 20) + ":" + big, answer);
    }

    @Test
    void serverStreamingCallDeliversEachMessageAsItIsWritten() {
        Iterator<String> it = ClientCalls.blockingServerStreamingCall(channel, COUNT, options(), "5:item-");
        assertTrue(it.hasNext());
        // The handler is now waiting for this: the first message came before the call ended.
        assertEquals("item-1", it.next());
        firstRead.countDown();
        List<String> rest = new ArrayList<>();
        it.forEachRemaining(rest::add);
        assertEquals(List.of("item-2", "item-3", "item-4", "item-5"), rest);
    }

    @Test
    void clientStreamingCallIsReadMessageByMessageFromTheBody() throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        StreamObserver<String> requests = ClientCalls.asyncClientStreamingCall(channel.newCall(JOIN, options()),
                new StreamObserver<>() {
                    @Override
                    public void onNext(String value) {
                        answer.complete(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                        answer.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        answer.complete("completed without a message");
                    }
                });
        requests.onNext("a");
        requests.onNext("");
        requests.onNext("b".repeat(70_000)); // past one DATA frame and the stream's window
        requests.onNext("c");
        requests.onCompleted();
        assertEquals("4 a++" + "b".repeat(70_000) + "+c trailers=0", answer.get(10, TimeUnit.SECONDS));
    }

    @Test
    void anErrorStatusIsAStatusRuntimeException() {
        StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                () -> ClientCalls.blockingUnaryCall(channel, FIND, options(), "k\u00e9y 100%"));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
        // grpc-message is percent-encoded UTF-8 on the wire; the client decodes it.
        assertEquals("no such key: k\u00e9y 100%", e.getStatus().getDescription());
        StatusRuntimeException unknown = assertThrows(StatusRuntimeException.class,
                () -> ClientCalls.blockingUnaryCall(channel, MISSING, options(), "x"));
        assertEquals(Status.Code.UNIMPLEMENTED, unknown.getStatus().getCode());
        assertEquals("unknown method /test.Greeter/Missing", unknown.getStatus().getDescription());
        // The channel (one h2c connection) is still good.
        assertFalse(channel.isShutdown());
        assertEquals("Hello, again", ClientCalls.blockingUnaryCall(channel, SAY_HELLO, options(), "again"));
    }
}
