/**
 * The server-status page: {@link org.loommpm.status.StatusHandler} renders the engine's counters
 * and scoreboard as HTML, as mod_status's {@code ?auto} text, and as JSON.
 */
package org.loommpm.status;
