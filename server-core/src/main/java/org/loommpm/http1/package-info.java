/**
 * HTTP/1.1 on the engine. The wire codec has no socket, so it can be tested byte by byte:
 * finding ({@link org.loommpm.http1.HeadScanner}) and parsing
 * ({@link org.loommpm.http1.RequestHeadParser}) request heads, framing request bodies
 * ({@link org.loommpm.http1.ChunkedInputStream}, {@link org.loommpm.http1.FixedLengthInputStream}).
 * The connection loop ({@link org.loommpm.http1.Http1Protocol}) reads and writes through
 * the engine's {@code Connection} and switches a connection to HTTP/2 when asked. What HTTP/2
 * shares (dates, reasons, the request head, header validation, the exchange runner) lives in
 * {@code org.loommpm.http}. Protocol errors surface as {@link org.loommpm.api.HttpException}
 * carrying the status to answer with.
 */
package org.loommpm.http1;
