package dev.tether.supervisor;

import java.util.Set;
import java.util.TreeSet;

/**
 * A set of exits, by exit code and by signal, for a child's exit-code rules
 * ({@link ChildSpec#successExitCodes()}, {@link ChildSpec#restartPreventExitCodes()}), as
 * systemd's {@code SuccessExitStatus=} and {@code RestartPreventExitStatus=} name them.
 *
 * @param codes exit codes, 0 to 255
 * @param signals signal numbers, 1 to 64 ({@link Signals#number} reads a name)
 */
public record ExitCodes(Set<Integer> codes, Set<Integer> signals) {

	/** No exit. */
	public static final ExitCodes NONE = new ExitCodes(Set.of(), Set.of());

	public ExitCodes {
		codes = Set.copyOf(new TreeSet<>(codes));
		signals = Set.copyOf(new TreeSet<>(signals));
		for (int code : codes) {
			if (code < 0 || code > 255) {
				throw new IllegalArgumentException("an exit code is 0 to 255 (was " + code + ")");
			}
		}
		for (int signal : signals) {
			if (signal < 1 || signal > 64) {
				throw new IllegalArgumentException("a signal is 1 to 64 (was " + signal + ")");
			}
		}
	}

	/** Whether this set names the exit: its code, or the signal that ended it. */
	public boolean matches(ExitStatus status) {
		Integer code = status.code();
		Integer signal = status.signal();
		return (code != null && this.codes.contains(code)) || (signal != null && this.signals.contains(signal));
	}

	/** Whether it names no exit. */
	public boolean isEmpty() {
		return this.codes.isEmpty() && this.signals.isEmpty();
	}

}
