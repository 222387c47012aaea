/**
 * Cross-Origin Resource Sharing (the Fetch standard's CORS protocol) as a
 * {@link org.loommpm.api.Filter}: {@link org.loommpm.cors.Cors}. It answers preflight requests
 * itself and adds the {@code Access-Control-*} fields and {@code Vary} to the other responses;
 * the browser enforces what they say. Depends on {@code org.loommpm.api} alone.
 */
package org.loommpm.cors;
