/**
 * {@link org.loommpm.jackson.JacksonCodec}: the {@link org.loommpm.json.JsonCodec} implemented with
 * Jackson databind, the one {@code loom-mpm-jackson} provides to {@link java.util.ServiceLoader}.
 */
package org.loommpm.jackson;
