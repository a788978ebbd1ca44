package dev.tether.supervisor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * How a child's health is probed on its port: its readiness (once, while it starts) or
 * its liveness (all along, once it is {@code RUNNING}).
 *
 * @param httpGet a path on the child's port whose {@code GET} answers 2xx or 3xx when all
 * is well, or {@code null}
 * @param tcp whether the probe is that the child's port accepts a connection (liveness
 * only: readiness without {@code httpGet} already is)
 * @param period how often the probe runs
 * @param timeout how long one probe may take before it counts as failed
 * @param failureThreshold how many failures in a row restart the child (liveness only)
 */
public record ProbeSettings(@Nullable String httpGet, boolean tcp, Duration period, Duration timeout,
		int failureThreshold) {

	/** Readiness by default: the port accepts, checked at each tick. */
	public static final ProbeSettings READINESS = new ProbeSettings(null, false, Duration.ofSeconds(1),
			Duration.ofSeconds(1), 1);

	/** Liveness by default: none. */
	public static final ProbeSettings LIVENESS = new ProbeSettings(null, false, Duration.ofSeconds(10),
			Duration.ofSeconds(1), 3);

	/** Whether a probe is configured at all. */
	public boolean enabled() {
		return this.httpGet != null || this.tcp;
	}

	/** What the probe asks, for logs and errors: {@code GET /health on port 8080}. */
	public String describe(@Nullable Integer port) {
		return (this.httpGet != null) ? "GET " + this.httpGet + " on port " + port : "a connection to port " + port;
	}

}
