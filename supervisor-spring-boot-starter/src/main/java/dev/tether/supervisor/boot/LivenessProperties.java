package dev.tether.supervisor.boot;

import org.jspecify.annotations.Nullable;

/**
 * How a running child is found alive: {@code supervisor.children.<name>.liveness.*} (and
 * {@code supervisor.defaults.liveness.*}). A child that fails its probe failure-threshold
 * times in a row is restarted through the stop ladder, and that counts as a failure for
 * its breaker.
 */
public class LivenessProperties extends ReadinessProperties {

	/**
	 * Whether the probe is that the child's port accepts a connection (instead of
	 * http-get).
	 */
	private @Nullable Boolean tcp;

	/**
	 * How many failed probes in a row restart the child.
	 */
	private @Nullable Integer failureThreshold;

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

}
