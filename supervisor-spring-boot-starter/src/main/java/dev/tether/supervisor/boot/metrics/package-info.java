/**
 * Micrometer meters of the supervisor: children by state, starts, restarts, exits, probe
 * failures, spawn and tick durations. Kept apart so that Micrometer stays an optional
 * dependency; the meters are only registered when a supervisor and a meter registry both
 * exist.
 */
@NullMarked
package dev.tether.supervisor.boot.metrics;

import org.jspecify.annotations.NullMarked;
