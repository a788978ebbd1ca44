package dev.tether.supervisor.boot.metrics;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildUsage;
import dev.tether.supervisor.Supervisor;

/**
 * What a child's tree uses, as meters tagged with the child:
 * {@code supervisor.child.memory} and {@code supervisor.child.processes},
 * {@code supervisor.child.descriptors} (gauges), {@code supervisor.child.cpu} and
 * {@code supervisor.child.memory.restarts} (function counters, so that rates work). Each
 * reads {@link Supervisor#usage}, whose half-second cache makes one scrape sample a tree
 * once.
 */
final class ResourceMeters {

	private ResourceMeters() {
	}

	static void bind(MeterRegistry registry, Supervisor supervisor, ChildSnapshot child) {
		String name = child.name();
		Tags tags = Tags.of("child", name, "kind", child.kind().id());
		Gauge.builder("supervisor.child.memory", supervisor, read(name, ChildUsage::residentMemory))
			.tags(tags)
			.baseUnit("bytes")
			.description("Resident memory of the child's processes (its command and every descendant)")
			.register(registry);
		Gauge.builder("supervisor.child.processes", supervisor, read(name, ChildUsage::processes))
			.tags(tags)
			.description("Processes of the child's tree")
			.register(registry);
		Gauge
			.builder("supervisor.child.descriptors", supervisor,
					read(name, (usage) -> (usage.openDescriptors() != null) ? usage.openDescriptors() : Double.NaN))
			.tags(tags)
			.description("Descriptors the child's command has open")
			.register(registry);
		FunctionCounter
			.builder("supervisor.child.cpu", supervisor, read(name, (usage) -> usage.cpuTime().toNanos() / 1e9))
			.tags(tags)
			.baseUnit("seconds")
			.description("CPU time (user and system) of the child's processes and of the descendants they reaped")
			.register(registry);
		FunctionCounter
			.builder("supervisor.child.memory.restarts", supervisor, read(name, ChildUsage::maxMemoryRestarts))
			.tags(tags)
			.description("Restarts of the child for exceeding max-memory")
			.register(registry);
	}

	private static ToDoubleFunction<Supervisor> read(String child, ToDoubleFunction<ChildUsage> value) {
		return (supervisor) -> supervisor.usage(child).map(value::applyAsDouble).orElse(Double.NaN);
	}

}
