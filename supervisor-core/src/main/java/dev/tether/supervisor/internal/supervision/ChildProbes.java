package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ProbeResult;

/**
 * A child's probes: the last readiness and liveness results of its current process, and
 * when the next probe is due. Results belong to one process: a new process starts with
 * none, and a result of an earlier one is dropped. Guarded, like the child that owns it,
 * by the supervisor's lock.
 */
final class ChildProbes {

	private @Nullable ChildProcess process;

	private @Nullable ProbeResult readiness;

	private @Nullable ProbeResult liveness;

	private boolean live;

	private boolean inFlight;

	private long nextProbeNanos;

	private void follow(ChildProcess current) {
		if (this.process != current) {
			this.process = current;
			this.readiness = null;
			this.liveness = null;
			this.live = false;
			this.inFlight = false;
		}
	}

	@Nullable ProbeResult readiness(@Nullable ChildProcess current) {
		return (current != null && current == this.process) ? this.readiness : null;
	}

	@Nullable ProbeResult liveness(@Nullable ChildProcess current) {
		return (current != null && current == this.process) ? this.liveness : null;
	}

	/**
	 * Whether a probe of {@code current} is due; if so it is in flight until its result.
	 * Liveness begins at a random point of the first period after the child was first
	 * seen {@code RUNNING}.
	 * @param live whether this is its liveness probe (else its readiness)
	 */
	boolean claim(ChildProcess current, boolean live, long nowNanos, Duration period) {
		follow(current);
		if (this.inFlight) {
			return false;
		}
		if (live && !this.live) {
			this.live = true;
			// Why a random point: children started together (1,000 at application start)
			// would otherwise be probed in the same tick, period after period, and that
			// tick would do a whole period's probing at once.
			this.nextProbeNanos = nowNanos + 1 + ThreadLocalRandom.current().nextLong(Math.max(1, period.toNanos()));
			return false;
		}
		if (nowNanos - this.nextProbeNanos < 0) {
			return false;
		}
		this.inFlight = true;
		// Why from the due time, not from now: a tick comes a little after the due time,
		// and counting the period from it would stretch every period by up to one tick.
		long next = this.nextProbeNanos + period.toNanos();
		this.nextProbeNanos = (next - nowNanos > 0) ? next : nowNanos + period.toNanos();
		return true;
	}

	/**
	 * Records a result of a probe of {@code checked}; call it only while that is still
	 * the child's process.
	 */
	ProbeResult record(ChildProcess checked, boolean live, boolean passed, String detail) {
		follow(checked);
		this.inFlight = false;
		ProbeResult previous = live ? this.liveness : this.readiness;
		int failures = passed ? 0 : ((previous != null) ? previous.failures() : 0) + 1;
		ProbeResult result = new ProbeResult(passed, detail, Instant.now(), failures);
		if (live) {
			this.liveness = result;
		}
		else {
			this.readiness = result;
		}
		return result;
	}

}
