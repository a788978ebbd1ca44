/**
 * Child output, as a user sees it: the settings that say where a child's stdout and
 * stderr go (a rotated file, the application's logging) and the view of what was
 * captured. The pipes, the pump that reads them and the sinks are internal
 * ({@code internal.output}).
 */
@NullMarked
package dev.tether.supervisor.output;

import org.jspecify.annotations.NullMarked;
