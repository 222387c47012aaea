/**
 * The engine's service provider interface: all that a protocol (HTTP/1.1, HTTP/2, and the
 * protocols to come) may use of the engine besides its connection. {@link
 * org.loommpm.spi.ChildServices} runs work on the child's workers and reports the child's state;
 * {@link org.loommpm.spi.WorkerTask} is the unit of work. The child, its worker pool and its
 * pollers are not part of it.
 */
package org.loommpm.spi;
