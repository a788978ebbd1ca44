package dev.tether.supervisor.boot;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

import dev.tether.supervisor.registry.RegistryRow;

/**
 * What reflection reaches in an application processed ahead of time (a native image): the
 * {@code supervisor.*} properties, bound through their getters and setters, the registry
 * file, which core's Jackson writes from records, and the parent-death launchers, which
 * core extracts from its jar as resources.
 */
class SupervisorRuntimeHints implements RuntimeHintsRegistrar {

	// Why by name: the file's top-level record is core's own (package-private), yet
	// Jackson reads its components by reflection when it writes the file.
	static final String REGISTRY_FILE = "dev.tether.supervisor.registry.FileChildRegistry$RegistryFile";

	static final String LAUNCHERS = "META-INF/tether/native/*/tether-launcher";

	private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		this.bindings.registerReflectionHints(hints.reflection(), SupervisorProperties.class, RegistryRow.class,
				ClassUtils.resolveClassName(REGISTRY_FILE, classLoader));
		hints.resources().registerPattern(LAUNCHERS);
	}

}
