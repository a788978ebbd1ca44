package dev.tether.supervisor.internal.identity;

/**
 * The fields Tether reads from {@code /proc/<pid>/stat}.
 *
 * @param pid the process id
 * @param command the command name (field 2, without its parentheses)
 * @param state the state letter ({@code R}, {@code S}, {@code Z}, ...)
 * @param ppid the parent's pid
 * @param pgrp the process group
 * @param session the session
 * @param threads the threads the process has (field 20), its exited leader included
 * @param startTime the start time in clock ticks since boot (field 22)
 */
public record ProcStat(long pid, String command, char state, long ppid, long pgrp, long session, long threads,
		long startTime) {

	/**
	 * Whether the process has exited (a zombie, not yet reaped, or dead): its leader has,
	 * and no other thread of it is left. Why the threads: a leader that exits first reads
	 * {@code Z} while the others run on, holding the process's files and sockets; the
	 * kernel closes those before it lets the last of them go.
	 */
	public boolean hasExited() {
		return (this.state == 'Z' || this.state == 'X' || this.state == 'x') && this.threads <= 1;
	}

}
