/**
 * HTTP semantics shared by HTTP/1.1 ({@code org.loommpm.http1}) and HTTP/2
 * ({@code org.loommpm.http2}): dates, status reasons, the URI codec, the request head, header
 * validation, whole-body reads, the response state both responses extend, the exchange runner
 * that calls the application's handler and answers its failures, and {@link
 * org.loommpm.http.ProtocolSwitch}, where HTTP/1.1 lets another protocol take a connection over
 * (implemented by {@code org.loommpm.protocol.ProtocolSelector}).
 * It imports neither protocol; both import it. The token grammar is in
 * {@code org.loommpm.http.syntax}, which imports nothing, so the application API may use it too.
 */
package org.loommpm.http;
