package org.loommpm.websocket.deflate;

/**
 * The permessage-deflate configuration agreed for one WebSocket (RFC 7692 §7.1).
 *
 * @param serverNoContextTakeover the server compresses each message on its own (its compressor
 *        is reset after every message, so it holds no state between messages)
 * @param clientNoContextTakeover the client does the same (the server's decompressor holds no
 *        state between messages)
 * @param serverMaxWindowBits the largest LZ77 window the server's messages may use (8-15); the
 *        JDK's {@link java.util.zip.Deflater} always uses 15 bits, so below 15 it is honoured by
 *        sending uncompressed every message longer than {@code 2^bits} bytes (with no context
 *        takeover a shorter message cannot refer back further than its own length)
 * @param clientMaxWindowBits the window announced for the client's messages, or 0 for none
 *        (the server's decompressor takes any window up to 15)
 * @param echoServerWindowBits whether the response names {@code server_max_window_bits}
 *        (the offer did)
 */
public record DeflateParams(boolean serverNoContextTakeover, boolean clientNoContextTakeover,
                            int serverMaxWindowBits, int clientMaxWindowBits, boolean echoServerWindowBits) {
    /** The extension token. */
    public static final String NAME = "permessage-deflate";

    /** The {@code Sec-WebSocket-Extensions} value that accepts this configuration. */
    public String responseHeader() {
        StringBuilder sb = new StringBuilder(NAME);
        if (serverNoContextTakeover) {
            sb.append("; server_no_context_takeover");
        }
        if (clientNoContextTakeover) {
            sb.append("; client_no_context_takeover");
        }
        if (echoServerWindowBits) {
            sb.append("; server_max_window_bits=").append(serverMaxWindowBits);
        }
        if (clientMaxWindowBits != 0) {
            sb.append("; client_max_window_bits=").append(clientMaxWindowBits);
        }
        return sb.toString();
    }

    /** The longest message the server may compress under {@link #serverMaxWindowBits}. */
    public int maxCompressedInput() {
        return serverMaxWindowBits >= 15 ? Integer.MAX_VALUE : 1 << serverMaxWindowBits;
    }
}
