package org.loommpm.examples.taskboard;

import java.util.List;

/**
 * A task on the board, as the JSON API sends it.
 *
 * @param id the board's number for it
 * @param title what to do
 * @param done whether it is done
 * @param owner the user who created it
 * @param attachments the names of the files attached to it, in upload order
 */
public record Task(int id, String title, boolean done, String owner, List<Attachment> attachments) {
    /**
     * A file attached to a task.
     *
     * @param name the stored file's name (the client's file name, made safe)
     * @param size its length in bytes
     * @param sha256 its SHA-256 digest, in hex
     */
    public record Attachment(String name, long size, String sha256) {
    }

    /** {@return this task with {@code attachment} added, replacing one of the same name (its file was overwritten)} */
    Task with(Attachment attachment) {
        List<Attachment> all = new java.util.ArrayList<>(attachments);
        all.removeIf(a -> a.name().equals(attachment.name()));
        all.add(attachment);
        return new Task(id, title, done, owner, List.copyOf(all));
    }
}
