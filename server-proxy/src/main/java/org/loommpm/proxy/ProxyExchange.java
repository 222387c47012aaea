package org.loommpm.proxy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.SocketTimeoutException;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * One attempt to serve a request through one leased backend connection: write the request head,
 * stream the client's body to the backend, read the response head, stream the response body to
 * the client. Bodies pass through one 16 KiB buffer: a read from one side is written to the other
 * before the next read, so a slow client parks this worker on its write and the backend, no
 * longer read, is held back by TCP flow control: nothing accumulates (the same for an upload). The
 * request body is sent before the response is read, as httpd's mod_proxy_http does. A response
 * body with a {@code Content-Length} of at most {@link #SMALL_BODY} is the exception: it is read
 * whole first and sent with its head in one write (one system call where streaming it took a
 * write for the head, one for the body and a {@code FIONREAD}), and a backend failing inside it
 * gets the client a clean 502.
 *
 * <p>{@code Expect: 100-continue} is forwarded: the backend's {@code 100} (or a wait of
 * {@link #CONTINUE_WAIT_MILLIS} without an answer, for backends that ignore it) lets the client's
 * body be read, which is when the server sends the client its own {@code 100}; a final status
 * instead is passed on without reading the body.
 *
 * <p><b>Threads.</b> Runs on the worker's virtual thread, which owns the leased connection for the
 * whole attempt; the caller releases it with the verdict {@link #run} returns.
 */
final class ProxyExchange {
    /** How long to wait for a backend's {@code 100 Continue} before sending the body anyway (curl's default). */
    static final int CONTINUE_WAIT_MILLIS = 1000;
    private static final int BUFFER = 16 * 1024;
    /**
     * Largest {@code Content-Length} body read whole before the response is sent: it then goes
     * out with its head in one write instead of through the streaming path (a write for the head,
     * one per buffer, a {@code FIONREAD} per read). The relay buffer's size, so memory per
     * exchange stays as bounded as before.
     */
    static final int SMALL_BODY = BUFFER;

    private final Request req;
    /** The client's body as it is sent on ({@link #firstChunkRead} for a chunked one). */
    private final InputStream clientBody;
    private final Response res;
    private final BackendConnection c;
    private final boolean reused;
    private final int timeoutMillis;
    private final ProxyHandler proxy;
    /** Whether a byte of the client's body has been read (the request can no longer be repeated). */
    private boolean bodyTouched;
    /** Whether the request asks the backend to switch protocols: a 101 then ends {@link #run}. */
    private boolean upgrade;
    /** Whether a 2xx instead of the 101 ends {@link #run} too (the client would take it for the switch). */
    private boolean onlySwitch;
    /** Whether the backend sent an interim response: it heard the request (the connection was not stale). */
    private boolean interimSeen;
    /** The backend's 101 when it switched protocols, else {@code null}. */
    private ResponseHead switched;

    ProxyExchange(Request req, InputStream clientBody, Response res, MemberPool.Lease lease, int timeoutMillis,
                  ProxyHandler proxy) {
        this.proxy = proxy;
        this.req = req;
        this.clientBody = clientBody;
        this.res = res;
        this.c = lease.connection();
        this.reused = lease.reused();
        this.timeoutMillis = timeoutMillis;
    }

    /** Marks the request as an upgrade the backend may accept with a 101 ({@link UpgradePolicy}), or not ({@code null}). */
    ProxyExchange upgrading(ClientUpgrade up) {
        upgrade = up != null;
        onlySwitch = upgrade && up.successMeansSwitched();
        return this;
    }

    /**
     * {@return the backend's 101 after {@link #run} if it switched protocols (nothing relayed), or
     * its 2xx when only a switch may succeed; else null}
     */
    ResponseHead switched() {
        return switched;
    }

    /**
     * Runs the attempt, the request head already composed in the connection's output buffer
     * (without its final empty line).
     *
     * @param body how the request body is framed toward the backend
     * @return whether the connection is left at a message boundary and may be reused
     * @throws AttemptFailed the backend failed; see its kind
     * @throws IOException the client failed (gone, or its body malformed): propagated as is
     */
    boolean run(RequestBody body, boolean expectContinue) throws AttemptFailed, IOException {
        c.ioTimeout(timeoutMillis * 1_000_000L);
        boolean sendBody = body != RequestBody.NONE;
        boolean askContinue = sendBody && expectContinue;
        if (askContinue) {
            c.ascii("Expect: 100-continue\r\n");
        }
        c.ascii("\r\n");
        try {
            c.flush();
        } catch (IOException e) {
            throw new AttemptFailed(reused ? AttemptFailed.Kind.STALE : AttemptFailed.Kind.NO_RESPONSE, true, e);
        }
        ResponseHead early = null;
        if (askContinue) {
            early = awaitContinue();
        }
        if (sendBody && early == null) {
            early = sendBody(body);
        }
        ResponseHead rh = early != null ? early : readFinalHead();
        if (rh.status() == 101 || onlySwitch && rh.status() < 300) {
            switched = rh; // the caller hands the connection to a tunnel, or refuses a 2xx
            return false;
        }
        return relay(rh, early == null);
    }

    /**
     * {@return the backend's verdict on {@code Expect: 100-continue}: null to send the body, else
     * a final head} Interim answers that are not the verdict (102, 103) go on to the client.
     */
    private ResponseHead awaitContinue() throws AttemptFailed, IOException {
        for (;;) {
            ResponseHead h = nextHeadWithin(CONTINUE_WAIT_MILLIS);
            if (h == null || h.status() == 100) {
                return null;
            }
            if (h.status() == 101) {
                return readFinalHead();
            }
            if (h.status() >= 200) {
                return h;
            }
            relayInterim(h);
        }
    }

    /** {@return the backend's next head, or null when none began within {@code millis}} */
    private ResponseHead nextHeadWithin(int millis) throws AttemptFailed {
        try {
            c.readTimeout(millis);
            ResponseHead h = c.readHead();
            c.readTimeout(0);
            interimSeen |= h.status() < 200;
            return h;
        } catch (SocketTimeoutException e) {
            try {
                c.readTimeout(0);
            } catch (IOException f) {
                throw new AttemptFailed(AttemptFailed.Kind.NO_RESPONSE, true, f);
            }
            return null;
        } catch (BackendProtocolException e) {
            throw new AttemptFailed(AttemptFailed.Kind.PROTOCOL, true, e);
        } catch (IOException e) {
            throw new AttemptFailed(reused ? AttemptFailed.Kind.STALE : AttemptFailed.Kind.NO_RESPONSE, true, e);
        }
    }

    /**
     * Streams the client's body to the backend. A failed write toward the backend may mean it
     * answered early (a 413, say) and closed: its head is read if there is one.
     *
     * @return null once the body is sent, or the head of an early final answer
     */
    private ResponseHead sendBody(RequestBody framing) throws AttemptFailed, IOException {
        InputStream in = clientBody;
        OutputStream out = framing == RequestBody.CHUNKED ? new BackendBodies.ChunkedOut(c.out()) : c.out();
        byte[] buf = new byte[BUFFER];
        for (;;) {
            int n = in.read(buf); // a client failure propagates: the caller closes this connection
            bodyTouched = true;
            try {
                if (n < 0) {
                    if (framing == RequestBody.CHUNKED) {
                        out.close();
                    }
                    c.flush();
                    return null;
                }
                out.write(buf, 0, n);
                if (in.available() == 0) {
                    c.flush();
                }
            } catch (IOException e) {
                try {
                    return readFinalHead();
                } catch (AttemptFailed f) {
                    throw new AttemptFailed(AttemptFailed.Kind.NO_RESPONSE, false, e);
                }
            }
        }
    }

    /**
     * {@return reads heads until a final one} A {@code 100} is dropped (the server answers the
     * client's {@code Expect} itself); other interim answers go on to the client.
     */
    private ResponseHead readFinalHead() throws AttemptFailed, IOException {
        for (;;) {
            ResponseHead h = nextHead();
            if (h.status() == 101) {
                if (upgrade) {
                    return h;
                }
                throw new AttemptFailed(AttemptFailed.Kind.PROTOCOL, false,
                        new BackendProtocolException("101 Switching Protocols without an Upgrade request"));
            }
            if (h.status() >= 200) {
                return h;
            }
            if (h.status() != 100) {
                relayInterim(h);
            }
        }
    }

    /** {@return the backend's next head} */
    private ResponseHead nextHead() throws AttemptFailed {
        try {
            ResponseHead h = c.readHead();
            interimSeen |= h.status() < 200;
            return h;
        } catch (SocketTimeoutException e) {
            throw new AttemptFailed(AttemptFailed.Kind.TIMEOUT, false, e);
        } catch (BackendProtocolException e) {
            throw new AttemptFailed(AttemptFailed.Kind.PROTOCOL, false, e);
        } catch (IOException e) {
            // A connection that closes before any answer may have been stale; one that answered
            // with an interim response was not.
            boolean stale = reused && !bodyTouched && !interimSeen && e instanceof EOFException && !c.hasBufferedBytes();
            throw new AttemptFailed(stale ? AttemptFailed.Kind.STALE : AttemptFailed.Kind.NO_RESPONSE, !bodyTouched, e);
        }
    }

    /**
     * Relays an interim response (102 Processing, 103 Early Hints) to the client as it comes, as
     * mod_proxy_http does, without its hop-by-hop fields. An HTTP/1.0 client gets none.
     *
     * @throws IOException the client failed
     */
    private void relayInterim(ResponseHead h) throws IOException {
        Headers fields = new Headers();
        copyEndToEnd(h.headers(), fields);
        res.sendInterim(h.status(), fields);
    }

    /**
     * Passes the response to the client.
     *
     * @param requestComplete whether the backend got the whole request (else the connection is not reused)
     * @return whether the connection may be reused
     */
    private boolean relay(ResponseHead rh, boolean requestComplete) throws AttemptFailed, IOException {
        boolean headRequest = req.method().equals("HEAD");
        ResponseHead.Framing framing;
        long length;
        try {
            length = rh.contentLength();
            framing = rh.framing(headRequest, length);
        } catch (BackendProtocolException e) {
            throw new AttemptFailed(AttemptFailed.Kind.PROTOCOL, false, e);
        }
        proxy.responseFields(rh, res.headers(), req.header("Host"), req.isSecure());
        res.status(rh.status());
        boolean reusable = requestComplete && rh.keepAlive() && framing != ResponseHead.Framing.CLOSE;
        if (framing == ResponseHead.Framing.NONE) {
            if (headRequest && length < 0) {
                // The GET's length is unknown: the head goes out as the GET's would through here
                // (streamed), where an empty send would announce a Content-Length of 0.
                OutputStream out = res.outputStream();
                out.flush();
                out.close();
                return reusable;
            }
            if (headRequest) {
                res.header("Content-Length", Long.toString(length));
            }
            res.send(new byte[0]);
            return reusable;
        }
        if (framing == ResponseHead.Framing.LENGTH && length <= SMALL_BODY) {
            // Read whole, then sent with its head in one write (one system call, no stream).
            res.send(readSmallBody((int) length));
            return reusable;
        }
        if (framing == ResponseHead.Framing.LENGTH) {
            res.header("Content-Length", Long.toString(length));
        }
        copyBody(BackendBodies.responseBody(c, framing, length));
        return reusable;
    }

    /**
     * The client's chunked body with its first chunk read already: that read makes the server
     * parse the first chunk-size line, so a malformed one (a size past 2^64, say) is answered 400
     * before a backend is chosen, connected to or sent the head, as nginx and httpd do. Reads on
     * the worker, bounded by the body's read timeout; the bytes read are sent first.
     *
     * @throws org.loommpm.api.HttpException 400 when the first chunk-size line is malformed
     */
    static InputStream firstChunkRead(InputStream body) throws IOException {
        byte[] first = new byte[BUFFER];
        int n = body.read(first);
        return n < 0 ? body : new SequenceInputStream(new ByteArrayInputStream(first, 0, n), body);
    }

    /**
     * Copies a backend head's end-to-end fields to the client's response: not the hop-by-hop
     * ones, nor {@code Content-Length} (the response frames its own body) or {@code Date}
     * (the server sets its own).
     */
    static void copyEndToEnd(Headers from, Headers to) {
        boolean namesOthers = HopByHop.namesOthers(from);
        for (int i = 0; i < from.size(); i++) {
            String name = from.name(i);
            if (!HopByHop.is(name, from, namesOthers) && !Headers.equalsIgnoreCase(name, "Content-Length")
                    && !Headers.equalsIgnoreCase(name, "Date")) {
                to.add(name, from.value(i));
            }
        }
    }

    /**
     * Reads a whole {@code Content-Length} body of at most {@link #SMALL_BODY} bytes before
     * anything goes to the client: a backend failing inside it is answered with a clean 502 or
     * 504, since nothing was committed.
     */
    private byte[] readSmallBody(int length) throws AttemptFailed {
        byte[] body = new byte[length];
        int off = 0;
        try {
            while (off < length) {
                int n = c.read(body, off, length - off);
                if (n < 0) {
                    throw new EOFException("backend closed the connection with " + (length - off) + " body bytes missing");
                }
                off += n;
            }
        } catch (SocketTimeoutException e) {
            throw new AttemptFailed(AttemptFailed.Kind.TIMEOUT, false, e);
        } catch (IOException e) {
            throw new AttemptFailed(AttemptFailed.Kind.NO_RESPONSE, false, e);
        }
        return body;
    }

    private void copyBody(InputStream body) throws AttemptFailed, IOException {
        OutputStream out = res.outputStream();
        byte[] buf = new byte[BUFFER];
        for (;;) {
            int n;
            try {
                n = body.read(buf);
            } catch (IOException e) {
                // Commit what we have so the client sees a cut-off response, never a short one
                // taken for whole: the caller fails the exchange and the server closes (h1) or
                // resets the stream (h2) without the final chunk.
                out.flush();
                throw new AttemptFailed(e instanceof SocketTimeoutException ? AttemptFailed.Kind.TIMEOUT
                        : AttemptFailed.Kind.ABORTED, false, e);
            }
            if (n < 0) {
                out.close();
                return;
            }
            out.write(buf, 0, n);
            if (!c.hasBufferedBytes() && c.available() == 0) {
                // The backend has nothing more right now: pass on what it sent (a streamed answer,
                // server-sent events) instead of holding it until the buffer fills.
                out.flush();
            }
        }
    }

    /** How the request body goes to the backend. */
    enum RequestBody {
        /** No body. */
        NONE,
        /** With the client's Content-Length. */
        LENGTH,
        /** Chunked: the length is not known (a chunked or HTTP/2 client body). */
        CHUNKED
    }
}
