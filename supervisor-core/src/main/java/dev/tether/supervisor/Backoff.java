package dev.tether.supervisor;

import java.time.Duration;

/**
 * Delays between restarts: {@code initial * multiplier^n}, at most {@code max}, spread by
 * {@code jitter} (a fraction either way).
 */
public record Backoff(Duration initial, Duration max, double multiplier, double jitter) {

	public static final Backoff DEFAULT = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(30), 2.0, 0.2);

	/** From this many failures on, the delay stops growing. */
	private static final int MAX_EXPONENT = 62;

	/** This backoff with another initial delay. */
	public Backoff withInitial(Duration initial) {
		return new Backoff(initial, this.max, this.multiplier, this.jitter);
	}

	/** This backoff with another longest delay. */
	public Backoff withMax(Duration max) {
		return new Backoff(this.initial, max, this.multiplier, this.jitter);
	}

	/** This backoff with another multiplier. */
	public Backoff withMultiplier(double multiplier) {
		return new Backoff(this.initial, this.max, multiplier, this.jitter);
	}

	/** This backoff with another jitter. */
	public Backoff withJitter(double jitter) {
		return new Backoff(this.initial, this.max, this.multiplier, jitter);
	}

	/** The delay before restart number {@code failures} (0 first), without jitter. */
	public Duration delay(int failures) {
		double millis = this.initial.toMillis() * Math.pow(this.multiplier, Math.min(failures, MAX_EXPONENT));
		return Duration.ofMillis((long) Math.min(millis, this.max.toMillis()));
	}

	/** The least time {@code restarts} restarts take, jitter included. */
	Duration minimumTotal(int restarts) {
		long total = 0;
		for (int i = 0; i < restarts; i++) {
			Duration delay = delay(i);
			long least = (long) (delay.toMillis() * (1.0 - this.jitter));
			if (delay.equals(this.max) || i >= MAX_EXPONENT) {
				// Why: every later delay equals this one; a large max-restarts must not
				// loop at startup.
				return Duration.ofMillis(total + least * (restarts - i));
			}
			total += least;
		}
		return Duration.ofMillis(total);
	}

}
