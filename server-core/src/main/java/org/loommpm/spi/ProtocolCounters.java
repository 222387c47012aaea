package org.loommpm.spi;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The server-wide counts of the protocol layers above the engine (TLS, HTTP/2, WebSocket,
 * suspended exchanges, proxy tunnels, and any protocol to come), as a registry: the SPI lists
 * none of them. A protocol keeps its counts in a holder class of its own, created once per
 * server by {@link #group}, whose constructor registers each count with its meter name, tags and
 * description ({@link #counter}, or {@link #gauge} for what is open now) and keeps the
 * {@link LongAdder} it gets back in a field: the hot path increments that field, with no lookup
 * and no contention. Readers see the counts as {@link Entry entries}: metrics by
 * {@link #onRegister} (which also hands them the entries registered later, when a protocol is
 * first used), the status page and tests by {@link #value} (0 for a count no protocol has
 * registered yet). Counts cover every generation, so counters only grow.
 *
 * <p><b>Threads.</b> Owned by the engine's supervisor for the server's lifetime; the protocols
 * reach it through {@link ChildServices#counters()}. Any thread registers (a generation's start,
 * a protocol's first connection or exchange): registrations and {@link #onRegister} are
 * serialized by one lock, so a listener sees every entry exactly once, in registration order, on
 * the registering thread. Any thread increments; any thread reads, without locks: sums are exact
 * once traffic stops.
 */
public final class ProtocolCounters {
    /** Counts that stay zero, for stats views with no protocol layer behind them: registering in it fails. */
    public static final ProtocolCounters NONE = new ProtocolCounters(false);

    /** What a registered count is. */
    public enum Kind {
        /** A total that only grows: the sum of its {@link LongAdder}. */
        COUNTER,
        /** What is open now: the sum of what opened minus the sum of what ended. */
        GAUGE
    }

    /** One registered count, as metrics and the status page see it. */
    public static final class Entry {
        private final String name;
        private final Map<String, String> tags;
        private final String description;
        private final LongAdder added;
        /** What ended, for a {@link Kind#GAUGE}; {@code null} for a counter. */
        private final LongAdder ended;

        private Entry(String name, Map<String, String> tags, String description, LongAdder added, LongAdder ended) {
            this.name = name;
            this.tags = tags;
            this.description = description;
            this.added = added;
            this.ended = ended;
        }

        /** {@return the meter name (Micrometer's dotted form, such as {@code loom.http2.connections})} */
        public String name() {
            return name;
        }

        /** {@return the meter's tags (none for most), fixed at registration} */
        public Map<String, String> tags() {
            return tags;
        }

        /** {@return the meter's description} */
        public String description() {
            return description;
        }

        /** {@return whether it is a total or a count of what is open now} */
        public Kind kind() {
            return ended == null ? Kind.COUNTER : Kind.GAUGE;
        }

        /** {@return the count now (recent, not a snapshot of every entry together)} */
        public long value() {
            return ended == null ? added.sum() : added.sum() - ended.sum();
        }
    }

    private final boolean registers;
    private final Object lock = new Object();
    private final Map<Class<?>, Object> groups = new ConcurrentHashMap<>();
    /** Written under {@link #lock}, read without it. */
    private final List<Entry> entries = new CopyOnWriteArrayList<>();
    /** Under {@link #lock}. */
    private final List<Consumer<? super Entry>> listeners = new ArrayList<>();

    /** An empty registry (the supervisor keeps one for the server's lifetime). */
    public ProtocolCounters() {
        this(true);
    }

    private ProtocolCounters(boolean registers) {
        this.registers = registers;
    }

    /**
     * A protocol's holder of counts: created by {@code create} (which registers the counts) on
     * the first call for {@code type}, the same object on every later one. A map lookup: call it
     * where a connection or an exchange is set up, never per increment.
     *
     * @param type the holder's class, which names the group
     * @param create makes the holder from this registry
     * @param <T> the holder's type
     * @return the holder
     * @throws IllegalStateException on {@link #NONE}, or when a count it registers is already registered
     */
    public <T> T group(Class<T> type, Function<? super ProtocolCounters, ? extends T> create) {
        Object found = groups.get(type);
        if (found == null) {
            synchronized (lock) {
                found = groups.get(type);
                if (found == null) {
                    found = create.apply(this);
                    groups.put(type, found);
                }
            }
        }
        return type.cast(found);
    }

    /**
     * Registers a total that only grows.
     *
     * @param name the meter name
     * @param description the meter's description
     * @param tags the meter's tags, as key, value pairs
     * @return what the protocol increments
     * @throws IllegalStateException on {@link #NONE}, or when {@code name} with these tags is already registered
     */
    public LongAdder counter(String name, String description, String... tags) {
        LongAdder added = new LongAdder();
        register(new Entry(name, tagMap(tags), description, added, null));
        return added;
    }

    /**
     * Registers a count of what is open now, the difference of two totals: {@code opened} (a
     * {@link #counter} the protocol registered, or a count of its own) and the one returned.
     *
     * @param name the meter name
     * @param description the meter's description
     * @param opened what opened so far
     * @param tags the meter's tags, as key, value pairs
     * @return what the protocol increments as each one ends
     * @throws IllegalStateException on {@link #NONE}, or when {@code name} with these tags is already registered
     */
    public LongAdder gauge(String name, String description, LongAdder opened, String... tags) {
        LongAdder ended = new LongAdder();
        register(new Entry(name, tagMap(tags), description, opened, ended));
        return ended;
    }

    /**
     * Hands {@code listener} every entry registered so far, then each one as it is registered,
     * on the registering thread and under the registry's lock: it must be quick, must not
     * throw (the registering protocol would fail) and must not register.
     *
     * @param listener what is told of each entry (metrics)
     */
    public void onRegister(Consumer<? super Entry> listener) {
        synchronized (lock) {
            entries.forEach(listener);
            if (registers) { // NONE is shared and never registers: keeping its listeners would only leak them
                listeners.add(listener);
            }
        }
    }

    /**
     * The count registered as {@code name} with exactly these tags.
     *
     * @param name the meter name
     * @param tags the meter's tags, as key, value pairs
     * @return its value now, or 0 when nothing registered it (its protocol was not used yet)
     */
    public long value(String name, String... tags) {
        Map<String, String> t = tagMap(tags);
        for (Entry e : entries) {
            if (e.name.equals(name) && e.tags.equals(t)) {
                return e.value();
            }
        }
        return 0;
    }

    private void register(Entry entry) {
        if (!registers) {
            throw new IllegalStateException("ProtocolCounters.NONE keeps no counts: " + entry.name);
        }
        synchronized (lock) {
            for (Entry e : entries) {
                if (e.name.equals(entry.name) && e.tags.equals(entry.tags)) {
                    throw new IllegalStateException("registered twice: " + entry.name + " " + entry.tags);
                }
            }
            entries.add(entry);
            for (Consumer<? super Entry> l : listeners) {
                l.accept(entry);
            }
        }
    }

    private static Map<String, String> tagMap(String... tags) {
        if (tags.length % 2 != 0) {
            throw new IllegalArgumentException("tags come in key, value pairs: " + List.of(tags));
        }
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < tags.length; i += 2) {
            m.put(tags[i], tags[i + 1]);
        }
        return Map.copyOf(m);
    }
}
