/**
 * Collects the exits of the children Tether spawned, by pid, never with
 * {@code waitpid(-1)} (which would steal every other {@link java.lang.Process}'s exit in
 * the JVM), and delivers each exactly once. It is also the proof behind signals to our
 * own children: a child not yet reaped cannot have had its pid reused.
 * <p>
 * Not API: public only for Tether's other internal packages, and may change in any
 * release.
 */
@NullMarked
package dev.tether.supervisor.internal.reaper;

import org.jspecify.annotations.NullMarked;
