package dev.tether.benchmarks;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.Supervisor;

/**
 * Ticks a bare supervisor every 200 ms, as the starter does at its default
 * {@code tick-interval}: a bare supervisor does not tick by itself.
 */
final class Ticker implements AutoCloseable {

	private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

	private Ticker(Supervisor supervisor) {
		this.executor.scheduleWithFixedDelay(supervisor::tick, 200, 200, TimeUnit.MILLISECONDS);
	}

	static Ticker start(Supervisor supervisor) {
		return new Ticker(supervisor);
	}

	/**
	 * Stops ticking once the tick under way, if any, has returned. Why not an interrupt:
	 * it lands inside the tick, whose registry save then fails as no user's ticker makes
	 * it fail.
	 */
	@Override
	public void close() throws InterruptedException {
		this.executor.shutdown();
		if (!this.executor.awaitTermination(10, TimeUnit.SECONDS)) {
			throw new IllegalStateException("a tick has not returned within 10 s");
		}
	}

}
