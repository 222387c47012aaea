/**
 * Static files for embedded applications: {@link org.loommpm.staticfiles.StaticFiles}, a
 * {@link org.loommpm.api.Handler} serving a directory with what {@code loom-mpm.jar} serves its
 * DocumentRoot with (the same code): media types, {@code ETag} and {@code Last-Modified} with
 * conditional requests, byte ranges, precompressed {@code .br}/{@code .gz} siblings, index files,
 * directory listings, and paths and symlinks kept inside the directory.
 *
 * <p>The implementation is in {@code org.loommpm.staticfiles.internal}, exported only to the
 * jar ({@code org.loommpm.cli}), which serves DocumentRoot and {@code Alias} targets with it;
 * it is not API.
 */
package org.loommpm.staticfiles;
