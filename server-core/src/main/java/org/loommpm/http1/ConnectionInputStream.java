package org.loommpm.http1;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotMove;

/**
 * The connection's bytes after the request head: first what is already in the context's read
 * buffer, then more from the socket, parking the worker's virtual thread while none has arrived.
 * Body decoders read through this and never past the body, so what remains in the buffer
 * afterwards is the next pipelined request. Worker-owned, like the connection.
 *
 * <p><b>Body read stage</b> ({@code RequestReadTimeout body=}, mod_reqtimeout's): the clock
 * starts at the first read that needs the socket; the client then has the stage's timeout, plus
 * one second per MinRate bytes it has sent since, up to the stage's maximum if it has one. Each
 * wait is bounded by that deadline as well as by {@code Timeout}; passing it throws a
 * {@link SocketTimeoutException} (the exchange answers 408 if nothing was sent yet, and closes),
 * logged once at INFO (LM2003).
 *
 * <p><b>Worker slot.</b> A wait that lasts lends the worker's slot until bytes come (or the stage's
 * deadline, or {@code Timeout}): a client that is not sending its body holds no slot. The
 * exchange then runs on whichever slot the worker takes back ({@link ExchangeSlot}).
 */
final class ConnectionInputStream extends InputStream {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http1");

    private final ProtocolConnection connection;
    private final ByteBuffer in;
    private final RequestReadTimeout.Stage stage;
    /** When the body stage started ({@link System#nanoTime()}), 0 before its first socket read. */
    private long stageStart;
    /** Bytes received from the socket since the stage started (what MinRate extends by). */
    private long received;
    /** Bytes handed to readers: the body as received, framing included ({@code %I}, metrics). */
    private long consumed;
    /** Told where the exchange runs on after a wait that lent its slot. */
    private final SlotMove moved;
    /** Set by {@link #arrivedOnly}: a read that would wait throws {@link NotArrived} instead. */
    private boolean arrivedOnly;

    /** A read found no more bytes arrived, in {@link #arrivedOnly} mode. */
    static final class NotArrived extends IOException {
        private static final long serialVersionUID = 1L;

        NotArrived() {
            super("no more bytes have arrived");
        }

        /** Control flow, never reported: no stack trace to fill. */
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /**
     * @param in the context's read buffer, in read mode
     * @param stage {@code RequestReadTimeout body=} (off: {@code Timeout} alone bounds each wait)
     * @param moved told the worker slot the exchange runs on after a wait that lent its own
     */
    ConnectionInputStream(ProtocolConnection connection, ByteBuffer in, RequestReadTimeout.Stage stage,
                          SlotMove moved) {
        this.connection = connection;
        this.in = in;
        this.stage = stage;
        this.moved = moved;
    }

    @Override
    public int read() throws IOException {
        if (!in.hasRemaining() && fill() < 0) {
            return -1;
        }
        consumed++;
        return in.get() & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!in.hasRemaining() && fill() < 0) {
            return -1;
        }
        int n = Math.min(len, in.remaining());
        in.get(b, off, n);
        consumed += n;
        return n;
    }

    /** Bytes read through this stream so far. */
    long consumed() {
        return consumed;
    }

    /**
     * From now on reads take only what has arrived (buffered, or in the socket's receive buffer)
     * and throw {@link NotArrived} where they would wait: the server drops the rest of a body the
     * handler left unread only if the client has sent it already.
     */
    void arrivedOnly() {
        arrivedOnly = true;
    }

    @Override
    public int available() {
        return in.remaining();
    }

    /** The bytes received and not read yet, as a view of the read buffer (not to be moved). */
    ByteBuffer buffered() {
        return in.slice();
    }

    /** Refills the empty buffer from the socket, parking until at least one byte or EOF. */
    private int fill() throws IOException {
        in.clear();
        int n;
        if (arrivedOnly) {
            n = connection.readNow(in);
            in.flip();
            if (n == 0) {
                throw new NotArrived();
            }
            return n;
        }
        if (!stage.enabled()) {
            n = connection.read(in, 0, moved);
        } else {
            long now = System.nanoTime();
            if (stageStart == 0) {
                stageStart = now;
            }
            long deadline = stage.deadline(stageStart, received);
            try {
                // Past the deadline, bytes already waiting still count: the handler may have been
                // slow, not the client. Only an empty socket times out.
                n = now - deadline >= 0 ? connection.readNow(in) : connection.read(in, deadline, moved);
                if (n == 0) {
                    throw new SocketTimeoutException("request body not received within RequestReadTimeout body=" + stage);
                }
            } catch (SocketTimeoutException e) {
                in.flip();
                if (System.nanoTime() - deadline >= 0) {
                    connection.services().intervalLog().log(LOG, Level.INFO,
                            "LM2003 connection {0} from {1}: request body not received within"
                            + " RequestReadTimeout body={2} ({3} bytes in {4} ms)", connection.id(),
                            connection.remoteAddress(), stage, received, (System.nanoTime() - stageStart) / 1_000_000);
                    throw new SocketTimeoutException("request body not received within RequestReadTimeout body=" + stage);
                }
                throw e;
            }
            if (n > 0) {
                received += n;
            }
        }
        in.flip();
        return n;
    }
}
