package dev.tether.supervisor.internal.identity;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.os.Posix;

/**
 * Answers whether a pid is ours. Every signal Tether sends goes through a verdict from
 * here.
 */
public interface IdentityProbe {

	/**
	 * Whether identity can be verified on this platform at all; when not, nothing is ever
	 * {@code OURS}.
	 */
	boolean isAvailable();

	/**
	 * Checks a pid against what it must be: {@code OURS} only when everything matches.
	 */
	Verdict verify(ExpectedIdentity expected);

	/**
	 * Whether the pid's process has exited (a zombie, not yet reaped, or dead): every
	 * thread of it, not only its leader ({@link ProcStat#hasExited()}).
	 */
	boolean hasExited(long pid);

	/**
	 * Whether the pid names a running process (not a zombie) that started at
	 * {@code startTime} (any start time when {@code null}): how a process proven ours
	 * earlier is told from a later process on the same pid.
	 */
	default boolean isRunning(long pid, @Nullable Long startTime) {
		Optional<ProcStat> stat = stat(pid);
		return stat.isPresent() && !stat.get().hasExited()
				&& (startTime == null || startTime == stat.get().startTime());
	}

	/** The stat fields of a live pid, if readable. */
	Optional<ProcStat> stat(long pid);

	/** This boot's id, if readable. */
	Optional<String> bootId();

	/**
	 * Every live process of this JVM's real uid carrying this owner's markers (the
	 * supervisor itself excluded).
	 */
	default List<MarkedProcess> scanMarked(Owner owner) {
		return scanMarked(owner, Set.of());
	}

	/**
	 * As {@link #scanMarked(Owner)}, without reading the processes in {@code skip}
	 * (already checked).
	 */
	List<MarkedProcess> scanMarked(Owner owner, Set<Long> skip);

	/**
	 * Whether a pid may be signalled at all: never 0, a negative (a group by accident), a
	 * value beyond a pid, 1, or the supervisor itself.
	 */
	static boolean signalablePid(long pid) {
		return pid > 1 && pid <= Integer.MAX_VALUE && pid != ProcessHandle.current().pid();
	}

	/**
	 * The probe for this platform: {@code /proc} on Linux, otherwise one that fails
	 * closed.
	 */
	static IdentityProbe forPlatform() {
		return Posix.isLinux() ? new ProcIdentityProbe() : new UnavailableIdentityProbe();
	}

}
