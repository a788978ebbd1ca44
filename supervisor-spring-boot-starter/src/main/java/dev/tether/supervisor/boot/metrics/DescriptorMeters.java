package dev.tether.supervisor.boot.metrics;

import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;

import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.Supervisor;

/**
 * The descriptor budget as meters: {@code supervisor.descriptors} (gauges tagged
 * {@code kind}: {@code used}, {@code limit}, {@code reserve}) and
 * {@code supervisor.descriptors.refusals} (starts refused for want of descriptors).
 */
final class DescriptorMeters {

	private DescriptorMeters() {
	}

	static void bindTo(MeterRegistry registry, ObjectProvider<Supervisor> supervisor) {
		gauge(registry, supervisor, "used", DescriptorUse::used);
		gauge(registry, supervisor, "limit", DescriptorUse::limit);
		gauge(registry, supervisor, "reserve", DescriptorUse::reserve);
		FunctionCounter
			.builder("supervisor.descriptors.refusals", supervisor,
					(provider) -> read(provider, DescriptorUse::refusals))
			.description("Child starts refused because they would cut into the descriptor reserve")
			.register(registry);
	}

	private static void gauge(MeterRegistry registry, ObjectProvider<Supervisor> supervisor, String kind,
			ToDoubleFunction<DescriptorUse> value) {
		Gauge.builder("supervisor.descriptors", supervisor, (provider) -> read(provider, value))
			.tag("kind", kind)
			.description("The application's descriptors: in use, the soft limit (-1: none), the reserve")
			.register(registry);
	}

	private static double read(ObjectProvider<Supervisor> provider, ToDoubleFunction<DescriptorUse> value) {
		Supervisor supervisor = provider.getIfAvailable();
		return (supervisor != null) ? value.applyAsDouble(supervisor.descriptors()) : Double.NaN;
	}

}
