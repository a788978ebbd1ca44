package dev.tether.supervisor.internal.supervision;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.testsupport.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The resources' watch on its own, with children that hold no process: nothing is spawned
 * or read from {@code /proc}, and time moves only when the test moves it.
 */
class ResourceWatchTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final ManualClock clock = new ManualClock();

	private final ChildTable table = new ChildTable();

	private final EventOutbox outbox = new EventOutbox(List.of(), this.table);

	private final ResourceWatch watch = new ResourceWatch(this.table, (child, process) -> {
		throw new AssertionError("nothing is stopped here");
	}, this.clock);

	@Test
	void aRemovedChildIsForgottenAtTheNextSweepThoughItsTreeKeepsNoFiles() {
		WeakReference<SupervisedChild> removed = sampledThenRemoved("gone");
		System.gc();
		assertThat(removed.get()).as("held by its tree until a sweep").isNotNull();
		this.clock.advance(ResourceWatch.SWEEP_PERIOD);
		this.watch.sweep();
		await().atMost(DEADLINE).until(() -> {
			System.gc();
			return removed.get() == null;
		});
	}

	/**
	 * Adds a child without a process, asks what it uses (which gives it a tree that keeps
	 * no file) and removes it; only the watch may still hold it.
	 */
	private WeakReference<SupervisedChild> sampledThenRemoved(String name) {
		SupervisedChild child = new SupervisedChild(ChildSpec.builder(name, List.of("true")).build(), this.outbox,
				this.clock, this.table);
		synchronized (this.table) {
			this.table.add(child, false);
		}
		assertThat(this.watch.usage(name)).hasValueSatisfying((usage) -> assertThat(usage.processes()).isZero());
		synchronized (this.table) {
			this.table.remove(child);
		}
		return new WeakReference<>(child);
	}

}
