package org.loommpm.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded, lock-free, intrusive recycle list: the Java form of motorz's per-poller
 * transaction-pool free list.
 *
 * <p><b>Contract.</b> Any number of threads (workers finishing with a connection context) may
 * {@link #push}; exactly one thread, the owning poller, may {@link #pop}. It is a Treiber stack
 * whose pops need no ABA protection because only the single consumer removes nodes: while the
 * consumer holds {@code head == h}, producers can only push on top of {@code h}, never remove
 * and re-insert it, so {@code h.next} cannot change under it. The bound is a reservation taken
 * with CAS on {@link #size} before the node is linked, so the list never holds more than
 * {@code capacity} nodes; a push that finds it full returns {@code false} and the caller drops
 * the node to the garbage collector.
 *
 * @param <T> the node type, carrying its own link (no allocation per push)
 */
public final class RecycleList<T extends RecycleList.Node<T>> {
    /** The intrusive link. A node is in at most one list, at most once. */
    public abstract static class Node<T> {
        T recycleNext;
    }

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(RecycleList.class, "head", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int capacity;
    private final AtomicInteger size = new AtomicInteger();
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile Node<T> head;

    /** @param capacity most nodes held; 0 keeps none */
    public RecycleList(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Offers a node for reuse. Any thread.
     *
     * @return {@code false} when the list is full (the node is not linked; drop it)
     */
    public boolean push(T node) {
        int s;
        do {
            s = size.get();
            if (s >= capacity) {
                return false;
            }
        } while (!size.compareAndSet(s, s + 1));
        Node<T> h;
        do {
            h = (Node<T>) HEAD.getVolatile(this);
            node.recycleNext = castOrNull(h);
        } while (!HEAD.compareAndSet(this, h, node));
        return true;
    }

    /** Takes a node, or {@code null} when empty. Owning poller only. */
    public T pop() {
        Node<T> h;
        do {
            h = (Node<T>) HEAD.getVolatile(this);
            if (h == null) {
                return null;
            }
        } while (!HEAD.compareAndSet(this, h, h.recycleNext));
        size.decrementAndGet();
        T t = castOrNull(h);
        t.recycleNext = null;
        return t;
    }

    /** Nodes held now (may briefly count a push that is still linking). */
    public int size() {
        return size.get();
    }

    /** The bound given at construction. */
    public int capacity() {
        return capacity;
    }

    @SuppressWarnings("unchecked")
    private static <T> T castOrNull(Node<T> n) {
        return (T) n;
    }
}
