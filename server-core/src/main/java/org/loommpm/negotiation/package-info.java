/**
 * Content negotiation (RFC 9110 §12): parses the {@code Accept} family of request fields (lists
 * of values with q-values) and picks the best of what a handler offers. {@link
 * org.loommpm.negotiation.MediaRange} reads {@code Accept}, {@link
 * org.loommpm.negotiation.QualityList} the token and language lists ({@code Accept-Encoding},
 * {@code Accept-Charset}, {@code Accept-Language}), and {@link
 * org.loommpm.negotiation.Negotiation} chooses among offers. The request's own
 * {@code Request.preferredType} and {@code Request.preferredLocale} use it.
 *
 * <p>Client input never makes these throw: an element that cannot be read is skipped, and a
 * q-value that cannot be read counts as 0 (not acceptable). Pure: it imports nothing of
 * loom-mpm, only the JDK.
 */
package org.loommpm.negotiation;
