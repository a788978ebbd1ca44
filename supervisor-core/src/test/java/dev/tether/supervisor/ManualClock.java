package dev.tether.supervisor;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A monotonic clock that moves only when a test moves it, for backoff, breaker and
 * stable-after.
 */
final class ManualClock implements LongSupplier {

	private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

	@Override
	public long getAsLong() {
		return this.nanos.get();
	}

	void advance(Duration by) {
		this.nanos.addAndGet(by.toNanos());
	}

}
