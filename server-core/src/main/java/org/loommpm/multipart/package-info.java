/**
 * {@code multipart/form-data} request bodies (RFC 7578 on RFC 2046's framing): what an HTML form
 * with a file input posts. {@link org.loommpm.multipart.MultipartReader} parses the body as it
 * streams in and hands out its {@link org.loommpm.multipart.Part}s in order: a part's content is
 * an {@code InputStream} over the body's bytes, so an upload is never held in memory. Parts can
 * also be stored ({@link org.loommpm.multipart.MultipartReader#readAll()}): small ones in memory,
 * the rest spooled to temporary files that the reader deletes when it is closed.
 * {@link org.loommpm.multipart.MultipartLimits} bounds every dimension a client controls.
 *
 * <p>A pure codec: it imports nothing of the server, so it can be tested and fuzzed byte by
 * byte; bad input is a {@link org.loommpm.multipart.MultipartException} carrying the HTTP status
 * to answer (400, 413, 415) and a message starting with a stable log id (LM2720-LM2733).
 * {@code org.loommpm.api.Request#multipart()} is how a handler uses it; the server closes that
 * reader when the handler's call ends, whatever the outcome.
 */
package org.loommpm.multipart;
