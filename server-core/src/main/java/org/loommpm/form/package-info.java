/**
 * {@code application/x-www-form-urlencoded} bodies (the WHATWG URL standard's serialisation, what
 * an HTML form posts by default): {@link org.loommpm.form.UrlEncodedForm} decodes one within a byte
 * and a field-count limit into an immutable {@link org.loommpm.form.FormData}, and encodes one.
 * A pure codec: it imports nothing of the server, so it can be tested and fuzzed byte by byte;
 * bad input is a {@link org.loommpm.form.FormException} carrying the HTTP status to answer
 * (400, 413, 415) and a message starting with a stable log id (LM2700-LM2704).
 * {@code org.loommpm.api.Request#form()} is how a handler uses it.
 */
package org.loommpm.form;
