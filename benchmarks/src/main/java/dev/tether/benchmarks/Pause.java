package dev.tether.benchmarks;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits out a length of time whole: a measuring window, a pause past a cache's life, a
 * point of a schedule.
 * <p>
 * Why not one {@code LockSupport.parkNanos}: it may return at once, for instance on a
 * permit that an earlier {@code unpark} of this thread left behind (a future completed
 * for a thread that had already stopped waiting for it). A ten-second window of the
 * restart rows once ended with no request answered, refused or failed, as if its client
 * had been closed before its first request; a park that returns at once is the one way
 * found for that to happen.
 */
final class Pause {

	private Pause() {
	}

	/** Returns once {@code length} has passed. */
	static void of(Duration length) {
		until(System.nanoTime() + length.toNanos());
	}

	/** Returns once {@link System#nanoTime()} has reached {@code deadline}. */
	static void until(long deadline) {
		for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}

}
