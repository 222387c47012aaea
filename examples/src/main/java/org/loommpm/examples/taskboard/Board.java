package org.loommpm.examples.taskboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The board's tasks, in memory, and who is watching them. Handlers on any virtual thread read
 * and change it; each change is told to every watcher (the SSE streams) on the changing thread.
 */
final class Board {
    private final Map<Integer, Task> tasks = new ConcurrentSkipListMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final List<Consumer<String>> watchers = new CopyOnWriteArrayList<>();

    List<Task> all() {
        return new ArrayList<>(tasks.values());
    }

    Task get(int id) {
        return tasks.get(id);
    }

    Task add(String title, String owner) {
        Task t = new Task(ids.incrementAndGet(), title, false, owner, List.of());
        tasks.put(t.id(), t);
        changed("created", t.id());
        return t;
    }

    /** Marks a task done or not; {@code null} when there is no such task. */
    Task update(int id, Boolean done) {
        Task t = tasks.computeIfPresent(id, (k, old) ->
                new Task(old.id(), old.title(), done == null ? old.done() : done, old.owner(), old.attachments()));
        if (t != null) {
            changed("updated", id);
        }
        return t;
    }

    boolean remove(int id) {
        boolean removed = tasks.remove(id) != null;
        if (removed) {
            changed("deleted", id);
        }
        return removed;
    }

    Task attach(int id, Task.Attachment a) {
        Task t = tasks.computeIfPresent(id, (k, old) -> old.with(a));
        if (t != null) {
            changed("updated", id);
        }
        return t;
    }

    /** Adds a watcher, told {@code "created 3"}-style lines; returns what removes it. */
    Runnable watch(Consumer<String> watcher) {
        watchers.add(watcher);
        return () -> watchers.remove(watcher);
    }

    private void changed(String what, int id) {
        for (Consumer<String> w : watchers) {
            w.accept(what + " " + id);
        }
    }
}
