package org.loommpm.spi;

/** Holds {@link EventLoop#current()}: set once by each poller thread, read by code it runs. */
final class CurrentLoop {
    static final ThreadLocal<EventLoop> OF_THREAD = new ThreadLocal<>();

    private CurrentLoop() {
    }
}
