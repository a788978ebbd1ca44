package dev.tether.supervisor.boot;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * How a running child is found alive: {@code supervisor.children.<name>.liveness.*} (and
 * {@code supervisor.defaults.liveness.*}). A child that fails its probe failure-threshold
 * times in a row is restarted through the stop ladder, and that counts as a failure for
 * its breaker.
 */
public class LivenessProperties extends ProbeProperties {

	/**
	 * Whether the probe is that the child's port accepts a connection (instead of
	 * http-get).
	 */
	private @Nullable Boolean tcp;

	/**
	 * How many failed probes in a row restart the child.
	 */
	private @Nullable Integer failureThreshold;

	/**
	 * Once RUNNING, the child must send WATCHDOG=1 over systemd's notify protocol at
	 * least this often (it gets WATCHDOG_USEC and a socket in NOTIFY_SOCKET), else it is
	 * restarted as after a failed liveness probe. Defaults to none.
	 */
	private @Nullable Duration watchdog;

	public @Nullable Boolean getTcp() {
		return this.tcp;
	}

	public void setTcp(@Nullable Boolean tcp) {
		this.tcp = tcp;
	}

	public @Nullable Integer getFailureThreshold() {
		return this.failureThreshold;
	}

	public void setFailureThreshold(@Nullable Integer failureThreshold) {
		this.failureThreshold = failureThreshold;
	}

	public @Nullable Duration getWatchdog() {
		return this.watchdog;
	}

	public void setWatchdog(@Nullable Duration watchdog) {
		this.watchdog = watchdog;
	}

}
