package dev.tether.supervisor.boot;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A child's delays between restarts, {@code supervisor.children.<name>.backoff.*} and
 * {@code supervisor.defaults.backoff.*}: initial * multiplier^n, at most max, spread by
 * jitter either way.
 */
public class ChildBackoffProperties {

	/**
	 * Delay before the first restart.
	 */
	private @Nullable Duration initial;

	/**
	 * Longest delay between restarts.
	 */
	private @Nullable Duration max;

	/**
	 * Factor applied to the delay after each restart.
	 */
	private @Nullable Double multiplier;

	/**
	 * Random spread of each delay, as a fraction either way (0.2 = +/-20%).
	 */
	private @Nullable Double jitter;

	public @Nullable Duration getInitial() {
		return this.initial;
	}

	public void setInitial(@Nullable Duration initial) {
		this.initial = initial;
	}

	public @Nullable Duration getMax() {
		return this.max;
	}

	public void setMax(@Nullable Duration max) {
		this.max = max;
	}

	public @Nullable Double getMultiplier() {
		return this.multiplier;
	}

	public void setMultiplier(@Nullable Double multiplier) {
		this.multiplier = multiplier;
	}

	public @Nullable Double getJitter() {
		return this.jitter;
	}

	public void setJitter(@Nullable Double jitter) {
		this.jitter = jitter;
	}

}
