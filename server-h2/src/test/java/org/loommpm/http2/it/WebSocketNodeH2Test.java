package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Router;
import org.loommpm.proxy.ProxyHandler;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * Another HTTP/2 stack as the client: Node's built-in {@code http2} module (nghttp2), which
 * implements RFC 8441's side of the client (it waits for SETTINGS_ENABLE_CONNECT_PROTOCOL before
 * it lets a request carry {@code :protocol}); the WebSocket framing on the stream is the
 * script's (no npm WebSocket client was found that opens its sockets over HTTP/2); directly, and
 * through a loom proxy to the same route over HTTP/1.1. Skipped where {@code node} is absent.
 */
class WebSocketNodeH2Test {
    private static final String CLIENT = """
// Node's own HTTP/2 client (nghttp2) as an RFC 8441 client: waits for the server's
// SETTINGS_ENABLE_CONNECT_PROTOCOL, opens an extended CONNECT, sends a masked text frame and a
// close frame, and prints what comes back.
const http2 = require('http2');
const crypto = require('crypto');
const client = http2.connect('http://127.0.0.1:' + process.argv[2]);
function frame(opcode, payload) {
  const key = crypto.randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len])
      : Buffer.from([0x80 | opcode, 0x80 | 126, len >> 8, len & 0xff]);
  const masked = Buffer.from(payload.map((b, i) => b ^ key[i & 3]));
  return Buffer.concat([head, key, masked]);
}
const timer = setTimeout(() => { console.log('timeout'); process.exit(2); }, 10000);
client.on('remoteSettings', (settings) => {
  if (!settings.enableConnectProtocol) { console.log('no enableConnectProtocol'); process.exit(3); }
  const req = client.request({':method': 'CONNECT', ':protocol': 'websocket', ':path': '/echo',
    ':scheme': 'http', ':authority': '127.0.0.1', 'sec-websocket-version': '13'});
  req.on('response', (h) => {
    console.log('status ' + h[':status']);
    req.write(frame(1, Buffer.from('hello from node')));
  });
  let buf = Buffer.alloc(0);
  req.on('data', (d) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 2 && buf.length >= 2 + (buf[1] & 0x7f)) {
      const op = buf[0] & 0x0f, len = buf[1] & 0x7f, p = buf.subarray(2, 2 + len);
      buf = buf.subarray(2 + len);
      if (op === 1) { console.log('text ' + p.toString()); req.write(frame(8, Buffer.from([0x03, 0xe8]))); }
      if (op === 8) { console.log('close ' + p.readUInt16BE(0)); req.end(); }
    }
  });
  req.on('end', () => { console.log('end'); clearTimeout(timer); client.close(); });
});
""";

    @TempDir
    Path dir;

    private final LinkedBlockingQueue<Integer> closes = new LinkedBlockingQueue<>();
    private final Router echo = new Router().websocket("/echo", new WebSocketHandler() {
        @Override
        public void onText(WebSocketSession s, String text) {
            s.sendText(text);
        }

        @Override
        public void onClose(WebSocketSession s, int code, String reason) {
            closes.add(code);
        }
    });

    @Test
    void nodeHttp2ClientOpensAWebSocketStream() throws Exception {
        Tools.assumeInstalled("node");
        try (H2Server server = H2Server.start(echo)) {
            runClient(server.port());
        }
    }

    /** The same client through a loom proxy ({@code upgrade=websocket}) to the echo route over HTTP/1.1. */
    @Test
    void nodeHttp2ClientThroughTheProxy() throws Exception {
        Tools.assumeInstalled("node");
        try (H2Server backend = H2Server.start(echo);
             H2Server proxy = H2Server.start(ProxyHandler.builder("/", "http://127.0.0.1:" + backend.port() + "/")
                     .upgrade("websocket").build())) {
            runClient(proxy.port());
            assertEquals(1, proxy.stats().proxyTunnelsOpened());
        }
    }

    private void runClient(int port) throws Exception {
        Path script = dir.resolve("client.js");
        Files.writeString(script, CLIENT);
        Tools.Result r = Tools.run("node", script.toString(), Integer.toString(port));
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        assertEquals("status 200\ntext hello from node\nclose 1000\nend\n", r.stdout(), r.stderr());
        assertEquals(1000, closes.poll(5, TimeUnit.SECONDS));
    }
}
