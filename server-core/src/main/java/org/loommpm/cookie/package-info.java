/**
 * HTTP cookies (RFC 6265bis): {@link org.loommpm.cookie.CookieParser} reads a request's
 * {@code Cookie} field into {@link org.loommpm.cookie.Cookie}s, leniently as browsers send them;
 * {@link org.loommpm.cookie.SetCookie} builds a {@code Set-Cookie} field value strictly, refusing
 * a name, value or attribute a browser would drop or misread. It imports only the JDK;
 * {@code Request.cookies()} and {@code Response.cookie(SetCookie)} in {@code org.loommpm.api} are
 * built on it.
 */
package org.loommpm.cookie;
