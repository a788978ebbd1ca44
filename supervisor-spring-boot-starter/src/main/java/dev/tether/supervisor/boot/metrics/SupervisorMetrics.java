package dev.tether.supervisor.boot.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ProbeFailure;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorListener;
import dev.tether.supervisor.boot.SupervisorTickObserver;
import dev.tether.supervisor.output.CapturedOutput;

/**
 * The supervisor's meters: {@code supervisor.children} (gauge by state),
 * {@code supervisor.child.starts}, {@code supervisor.child.restarts},
 * {@code supervisor.child.exits} (by outcome), {@code supervisor.child.probe.failures}
 * (by probe: readiness, liveness), {@code supervisor.child.output.bytes} and
 * {@code supervisor.child.output.lines}, what each child's tree uses
 * ({@link ResourceMeters}), {@code supervisor.spawn} and {@code supervisor.reap.tick}.
 */
public final class SupervisorMetrics implements MeterBinder, SupervisorListener, SupervisorTickObserver {

	private final ObjectProvider<Supervisor> supervisor;

	private final Map<String, Integer> restartsSeen = new ConcurrentHashMap<>();

	private final Set<String> outputsBound = ConcurrentHashMap.newKeySet();

	private volatile @Nullable MeterRegistry registry;

	// Why kept once found: the supervisor is a singleton, and looking it up in the bean
	// factory (a resolution of a generic dependency) at each child's start was work per
	// child at the start of many.
	private volatile @Nullable Supervisor resolved;

	public SupervisorMetrics(ObjectProvider<Supervisor> supervisor) {
		this.supervisor = supervisor;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (ChildState state : ChildState.values()) {
			Gauge.builder("supervisor.children", this, (metrics) -> metrics.count(state))
				.tag("state", state.name())
				.description("Supervised children in each state")
				.register(registry);
		}
		DescriptorMeters.bindTo(registry, this.supervisor);
		Supervisor current = supervisor();
		if (current != null) {
			current.snapshots().forEach((child) -> bindOutput(registry, current, child));
		}
		this.registry = registry;
	}

	/** Counts what a child wrote and what its tree uses, once per child. */
	private void bindOutput(MeterRegistry registry, Supervisor supervisor, ChildSnapshot child) {
		if (!this.outputsBound.add(child.name())) {
			return;
		}
		supervisor.output(child.name()).ifPresent((output) -> {
			Tags tags = Tags.of("child", child.name(), "kind", child.kind().id());
			FunctionCounter.builder("supervisor.child.output.bytes", output, CapturedOutput::bytes)
				.tags(tags)
				.baseUnit("bytes")
				.description("Bytes the child wrote to its stdout and stderr")
				.register(registry);
			FunctionCounter.builder("supervisor.child.output.lines", output, CapturedOutput::lines)
				.tags(tags)
				.description("Lines the child wrote to its stdout and stderr")
				.register(registry);
		});
		ResourceMeters.bind(registry, supervisor, child);
	}

	private @Nullable Supervisor supervisor() {
		Supervisor current = this.resolved;
		if (current == null) {
			current = this.supervisor.getIfAvailable();
			this.resolved = current;
		}
		return current;
	}

	private double count(ChildState state) {
		Supervisor current = supervisor();
		return (current != null) ? current.snapshots().stream().filter((child) -> child.state() == state).count() : 0;
	}

	@Override
	public void onEvent(ChildEvent event) {
		MeterRegistry meters = this.registry;
		if (meters == null) {
			return;
		}
		Tags child = Tags.of("child", event.child().name(), "kind", event.child().kind().id());
		int restarts = event.child().restarts();
		Integer seen = this.restartsSeen.put(event.child().name(), restarts);
		// Why only growth since the last event: the first event of a child adopted from
		// an earlier run already carries that run's restarts, which that run counted.
		if (seen != null && restarts > seen) {
			meters.counter("supervisor.child.restarts", child).increment(restarts - seen);
		}
		switch (event.type()) {
			case STARTED -> {
				Supervisor current = supervisor();
				if (current != null) {
					bindOutput(meters, current, event.child());
				}
				meters.counter("supervisor.child.starts", child).increment();
				spawn(meters, "success", event.spawnDuration());
			}
			case EXITED, STOPPED -> {
				if (event.exit() != null) {
					meters.counter("supervisor.child.exits", child.and("outcome", event.exit().outcome())).increment();
				}
			}
			case FAILED -> {
				if (event.spawnDuration() != null) {
					spawn(meters, "failure", event.spawnDuration());
				}
			}
			case REMOVED -> forget(meters, event.child().name());
			case RESTARTING -> {
			}
		}
	}

	@Override
	public void onProbeFailed(ProbeFailure failure) {
		MeterRegistry meters = this.registry;
		if (meters != null) {
			meters
				.counter("supervisor.child.probe.failures", "child", failure.child(), "kind", failure.kind().id(),
						"probe", failure.probe().name().toLowerCase(Locale.ROOT))
				.increment();
		}
	}

	/**
	 * A removed child's meters go with it, so that a registry of short-lived children
	 * does not grow without end.
	 */
	private void forget(MeterRegistry meters, String child) {
		for (Meter meter : List.copyOf(meters.getMeters())) {
			if (meter.getId().getName().startsWith("supervisor.child.")
					&& child.equals(meter.getId().getTag("child"))) {
				meters.remove(meter);
			}
		}
		this.outputsBound.remove(child);
		this.restartsSeen.remove(child);
	}

	private static void spawn(MeterRegistry meters, String outcome, @Nullable Duration duration) {
		if (duration != null) {
			Timer.builder("supervisor.spawn").tag("outcome", outcome).register(meters).record(duration);
		}
	}

	@Override
	public void ticked(Duration duration) {
		MeterRegistry meters = this.registry;
		if (meters != null) {
			Timer.builder("supervisor.reap.tick").register(meters).record(duration);
		}
	}

}
