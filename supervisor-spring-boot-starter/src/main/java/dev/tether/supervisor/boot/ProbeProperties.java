package dev.tether.supervisor.boot;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What a probe on a child's port is: the settings its readiness
 * ({@link ReadinessProperties}) and its liveness ({@link LivenessProperties}) share.
 * Every setting is {@code null} unless set.
 */
public abstract class ProbeProperties {

	/**
	 * Path on the child's port whose GET must answer 2xx or 3xx (redirects are not
	 * followed). Defaults to none: the child is ready once its port accepts connections.
	 */
	private @Nullable String httpGet;

	/**
	 * How often the probe runs.
	 */
	private @Nullable Duration period;

	/**
	 * How long one probe may take before it counts as failed.
	 */
	private @Nullable Duration timeout;

	public @Nullable String getHttpGet() {
		return this.httpGet;
	}

	public void setHttpGet(@Nullable String httpGet) {
		this.httpGet = httpGet;
	}

	public @Nullable Duration getPeriod() {
		return this.period;
	}

	public void setPeriod(@Nullable Duration period) {
		this.period = period;
	}

	public @Nullable Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(@Nullable Duration timeout) {
		this.timeout = timeout;
	}

}
