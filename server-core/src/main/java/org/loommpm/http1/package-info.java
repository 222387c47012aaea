/**
 * The HTTP/1.1 wire codec, free of sockets so it can be tested byte by byte: finding
 * ({@link org.loommpm.http1.HeadScanner}) and parsing ({@link org.loommpm.http1.RequestHeadParser})
 * request heads, framing request bodies ({@link org.loommpm.http1.ChunkedInputStream},
 * {@link org.loommpm.http1.FixedLengthInputStream}), and the small pieces a response head needs
 * ({@link org.loommpm.http1.StatusReasons}, {@link org.loommpm.http1.HttpDate}). Protocol errors
 * surface as {@link org.loommpm.api.HttpException} carrying the status to answer with.
 */
package org.loommpm.http1;
