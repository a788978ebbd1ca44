package dev.tether.supervisor;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * How a process ended: an exit code, a signal, or unknown (a process that was not our
 * child, watched through {@code /proc}).
 *
 * @param code the exit code, or {@code null}
 * @param signal the number of the signal that ended it, or {@code null}
 * @param at when the exit was seen
 * @param killer who sent the SIGKILL that ended a child, when Tether did not:
 * {@link #OOM_KILLER} or {@link #OTHER}; {@code null} for any other end, and for a
 * SIGKILL of Tether's own stop
 */
public record ExitStatus(@Nullable Integer code, @Nullable Integer signal, Instant at, @Nullable String killer) {

	/**
	 * The {@link #killer()} of a SIGKILL that Tether did not send while the kernel
	 * counted an OOM kill ({@code oom_kill} of {@code /proc/vmstat}) during the process's
	 * life.
	 */
	public static final String OOM_KILLER = "oom-killer";

	/**
	 * The {@link #killer()} of a SIGKILL that Tether did not send, with no OOM kill
	 * counted meanwhile.
	 */
	public static final String OTHER = "other";

	public ExitStatus(@Nullable Integer code, @Nullable Integer signal, Instant at) {
		this(code, signal, at, null);
	}

	/** This status, with who sent its SIGKILL. */
	public ExitStatus withKiller(String killer) {
		return new ExitStatus(this.code, this.signal, this.at, killer);
	}

	public static ExitStatus exited(int code) {
		return new ExitStatus(code, null, Instant.now());
	}

	public static ExitStatus signalled(int signal) {
		return new ExitStatus(null, signal, Instant.now());
	}

	public static ExitStatus unknown() {
		return new ExitStatus(null, null, Instant.now());
	}

	/**
	 * Decodes a status word as returned by {@code waitpid}.
	 */
	public static ExitStatus fromWaitStatus(int status) {
		int low = status & 0x7f;
		if (low == 0) {
			return exited((status >> 8) & 0xff);
		}
		return signalled(low);
	}

	/** Exited with code 0. */
	public boolean isClean() {
		return this.code != null && this.code == 0;
	}

	/**
	 * The metric outcome: {@code clean}, {@code failure}, {@code signal} or
	 * {@code unknown}.
	 */
	public String outcome() {
		if (this.signal != null) {
			return "signal";
		}
		if (this.code == null) {
			return "unknown";
		}
		return (this.code == 0) ? "clean" : "failure";
	}

	@Override
	public String toString() {
		if (this.signal != null && this.killer != null) {
			String by = OOM_KILLER.equals(this.killer) ? "most likely the kernel's OOM killer" : "not sent by Tether";
			return "killed by signal " + this.signal + " (" + by + ")";
		}
		if (this.signal != null) {
			return "killed by signal " + this.signal;
		}
		return (this.code != null) ? "exit code " + this.code : "exit status unknown";
	}

}
