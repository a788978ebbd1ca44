package dev.tether.supervisor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What a child's tree uses: its command and every descendant under its shepherd, or the
 * command and its live descendants where it has none. Sampled from {@code /proc} on
 * demand, and cached for half a second.
 *
 * @param residentMemory the resident memory of its processes, in bytes (0 without a
 * process)
 * @param cpuTime user and system CPU time of the child over this supervisor's life: of
 * its processes, of the descendants they have reaped (a shepherd reaps every orphan, so
 * that of exited descendants is kept), and of its earlier processes as last sampled; it
 * never decreases
 * @param processes how many live processes the tree has now (its shepherd and zombies not
 * counted)
 * @param zombies how many of its descendants have ended and are not reaped yet (a parent
 * that never waits leaks them)
 * @param openDescriptors how many descriptors the command has open, or {@code null} when
 * unknown (no process, the command not forked yet, or {@code /proc/<pid>/fd} unreadable)
 * @param maxMemoryRestarts how many times the child was restarted for exceeding
 * {@code max-memory}
 */
public record ChildUsage(long residentMemory, Duration cpuTime, int processes, int zombies,
		@Nullable Integer openDescriptors, long maxMemoryRestarts) {
}
