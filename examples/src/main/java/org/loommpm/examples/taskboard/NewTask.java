package org.loommpm.examples.taskboard;

/**
 * The JSON body of {@code POST /api/tasks} and {@code PATCH /api/tasks/{id}}.
 *
 * @param title what to do ({@code null} in a PATCH that only marks a task done)
 * @param done whether it is done ({@code null}: unchanged)
 */
public record NewTask(String title, Boolean done) {
}
