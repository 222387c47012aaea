package org.loommpm.http2.frame;

/**
 * What a {@link FrameReader} hands on, one call per well-formed frame: the frame's layout has
 * been checked (RFC 9113 §4 and §6: lengths, padding, which frames may use stream 0, the
 * connection preface, SETTINGS first, header blocks continued without interruption), so a
 * listener acts on stream states, windows and limits only. Payload ranges point into the
 * reader's buffer and are valid during the call only.
 *
 * <p>A listener throws {@link Http2Error}: a stream error resets that stream and the reader goes
 * on with the next frame ({@link #streamError}); a connection error ends the read.
 */
public interface FrameListener {
    /**
     * DATA on {@code streamId}: {@code len} bytes of body at {@code off} (padding removed);
     * {@code flowLength} is the whole payload, padding included, which flow control counts.
     */
    void data(int streamId, byte[] a, int off, int len, int flowLength, boolean endStream) throws Http2Error;

    /**
     * HEADERS opening (or ending, with trailers) a client stream: the first fragment of its
     * header block at {@code off}. {@code dependency} is the priority's stream dependency, or -1
     * without the PRIORITY flag.
     */
    void headers(int streamId, byte[] a, int off, int len, int dependency, boolean endStream, boolean endHeaders)
            throws Http2Error;

    /** CONTINUATION of the header block in progress on {@code streamId}. */
    void continuation(int streamId, byte[] a, int off, int len, boolean endHeaders) throws Http2Error;

    /** PRIORITY (5 bytes) naming {@code dependency}. */
    void priority(int streamId, int dependency) throws Http2Error;

    /** RST_STREAM from the client with its error code (any 32-bit value). */
    void rstStream(int streamId, int code) throws Http2Error;

    /**
     * SETTINGS (not an ack): {@code len / 6} parameters at {@code off}; {@code preface} for the
     * client's first, which is part of its connection preface (RFC 9113 §3.4).
     */
    void settings(byte[] a, int off, int len, boolean preface) throws Http2Error;

    /** The client acknowledged our SETTINGS. */
    void settingsAck() throws Http2Error;

    /** PING with its 8-byte payload at {@code off}. */
    void ping(byte[] a, int off, boolean ack) throws Http2Error;

    /** GOAWAY from the client. */
    void goAway(int lastStreamId, int code) throws Http2Error;

    /** WINDOW_UPDATE for the connection (stream 0) or a stream; the increment may be 0. */
    void windowUpdate(int streamId, int increment) throws Http2Error;

    /**
     * A frame, or a listener call, raised a stream error; the reader goes on unless this throws
     * a connection error (an abuse guard counting the resets).
     */
    void streamError(Http2Error e) throws Http2Error;

    /** A whole frame was consumed (whatever was partial has arrived). */
    void frameCompleted();
}
