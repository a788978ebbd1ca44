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
 * @param startTime the start time in clock ticks since boot (field 22)
 */
public record ProcStat(long pid, String command, char state, long ppid, long pgrp, long session, long startTime) {

	/** Whether this is a zombie (exited, not yet reaped) or dead. */
	public boolean isZombie() {
		return this.state == 'Z' || this.state == 'X' || this.state == 'x';
	}

}
