package dev.tether.supervisor.internal.spawn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What the supervisor knows of a shepherd: the launcher's mode that stays as the process
 * spawned, between the supervisor and the command, and ends every descendant of the
 * command with it (see {@code tether-shepherd.c}).
 */
public final class Shepherd {

	/**
	 * The signal that asks a shepherd to end its command's whole tree at once with
	 * SIGKILL (40, {@code SIGRTMIN+6} under glibc; fixed in {@code tether-shepherd.c}).
	 */
	public static final int KILL_TREE_SIGNAL = 40;

	// Why this bound: a shepherd forks its command within a millisecond on an idle
	// machine, but a loaded one (two cores, builds beside it) has been seen to take over
	// 100 ms; one that has not forked after 5 s is reported without its command's pid.
	private static final long COMMAND_FORK_NANOS = TimeUnit.SECONDS.toNanos(5);

	private static final long FIRST_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

	private static final long LONGEST_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private Shepherd() {
	}

	/**
	 * Waits, boundedly, until a just spawned shepherd has forked its command (or has
	 * ended), so that the command's pid is known when a start returns. Call it holding no
	 * lock.
	 */
	public static void awaitCommand(long shepherdPid) {
		long deadline = System.nanoTime() + COMMAND_FORK_NANOS;
		long pause = FIRST_POLL_NANOS;
		Path shepherd = Path.of("/proc", Long.toString(shepherdPid));
		while (commandPid(shepherdPid).isEmpty() && Files.exists(shepherd) && System.nanoTime() - deadline < 0) {
			LockSupport.parkNanos(pause);
			pause = Math.min(pause * 2, LONGEST_POLL_NANOS);
		}
	}

	/**
	 * The command's pid: the shepherd's first child, read from
	 * {@code /proc/<pid>/task/<pid>/children}. Empty while the shepherd has not forked
	 * yet, once it has ended, or where the kernel does not list children.
	 * @param shepherdPid the shepherd's pid (a direct, unreaped child of this JVM)
	 */
	public static OptionalLong commandPid(long shepherdPid) {
		String pid = Long.toString(shepherdPid);
		try {
			String children = Files.readString(Path.of("/proc", pid, "task", pid, "children")).strip();
			if (children.isEmpty()) {
				return OptionalLong.empty();
			}
			int space = children.indexOf(' ');
			return OptionalLong.of(Long.parseLong((space < 0) ? children : children.substring(0, space)));
		}
		catch (IOException | NumberFormatException ex) {
			return OptionalLong.empty();
		}
	}

}
