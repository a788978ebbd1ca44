package dev.tether.supervisor.testsupport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A monotonic clock that moves only when a test moves it, for backoff, breaker and
 * stable-after.
 */
public final class ManualClock implements LongSupplier {

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	@Override
	public long getAsLong() {
		return this.nanos.get();
	}

	public void advance(Duration by) {
		this.nanos.addAndGet(by.toNanos());
	}

}
