package dev.tether.supervisor.boot.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What reflection reaches in an application processed ahead of time (a native image): the
 * {@code children} endpoint's answer, records that Jackson writes by their components
 * (the nested records and core's {@code SpawnFeatures} reached from the top one).
 */
class ChildrenEndpointRuntimeHints implements RuntimeHintsRegistrar {

	private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		// Why the exit codes apart: they sit in a child's details map, which Jackson
		// writes by the values' own types.
		this.bindings.registerReflectionHints(hints.reflection(), ChildrenEndpoint.ChildrenDescriptor.class,
				ChildrenEndpoint.ExitCodesDescriptor.class);
	}

}
