/**
 * The JSON codec SPI: {@link org.loommpm.json.JsonCodec} reads a body as a Java type and writes
 * an object, {@link org.loommpm.json.JsonCodecs} finds the implementation with
 * {@link java.util.ServiceLoader}. It imports only the JDK: the implementation lives in an
 * optional module ({@code loom-mpm-jackson}), so an application that never uses JSON does not
 * carry a JSON library. {@code Request.json} and {@code Response.json} in {@code org.loommpm.api}
 * are built on it.
 */
package org.loommpm.json;
