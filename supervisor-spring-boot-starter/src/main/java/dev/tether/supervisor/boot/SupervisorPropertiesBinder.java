package dev.tether.supervisor.boot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Binds {@code supervisor.*} once, with the settings modules add to each child
 * ({@link ChildSettingsGroup}), and fails naming every key that bound to nothing, where
 * it was set, and the setting it most likely meant.
 * <p>
 * Why Boot's {@link NoUnboundElementsBindHandler}, one instance for every bind: it knows
 * the names each bind used, in any relaxed spelling, so the last bind (of
 * {@code supervisor}) sees as unknown only what neither the starter nor a module bound.
 * Why its {@link UnboundElementsSourceFilter}: the process environment and the system
 * properties are shared with other software (supervisord sets {@code SUPERVISOR_*} in the
 * environment of every program it runs), so only what the application's configuration
 * says is checked; what they set is still bound.
 */
final class SupervisorPropertiesBinder {

	private static final ConfigurationPropertyName SUPERVISOR = ConfigurationPropertyName.of("supervisor");

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	private static final ConfigurationPropertyName DEFAULTS = ConfigurationPropertyName.of("supervisor.defaults");

	private final List<ChildSettingsGroup> groups;

	private final SettingNames names;

	SupervisorPropertiesBinder(@Nullable ClassLoader classLoader) {
		this.groups = SpringFactoriesLoader.forDefaultResourceLocation(classLoader).load(ChildSettingsGroup.class);
		this.names = new SettingNames(this.groups);
	}

	/**
	 * Binds the configuration of {@code environment}.
	 * @throws InvalidSupervisorConfigurationException naming every unknown key
	 */
	ConfiguredChildren bind(Environment environment) {
		Binder binder = Binder.get(environment);
		Pass pass = new Pass(binder);
		Map<String, ConfiguredChild> children = new LinkedHashMap<>();
		// Why the defaults alone first: their names are then known with no child at all.
		this.groups.forEach((group) -> pass.bind(DEFAULTS.append(group.key()), Bindable.of(group.getClass())));
		for (String name : childNames(ConfigurationPropertySources.get(environment))) {
			List<ChildSettingsGroup> settings = new ArrayList<>(this.groups.size());
			this.groups.forEach((group) -> settings.add(pass.layered(name, group)));
			children.put(name, new ConfiguredChild(name, settings));
		}
		SupervisorProperties properties = pass.bind(SUPERVISOR, Bindable.of(SupervisorProperties.class));
		if (!pass.unknown.isEmpty()) {
			throw new UnknownSupervisorPropertiesException(pass.unknown.stream().map(this::describe).toList());
		}
		return new ConfiguredChildren((properties != null) ? properties : new SupervisorProperties(), children);
	}

	private UnknownSupervisorPropertiesException.UnknownProperty describe(ConfigurationProperty property) {
		return new UnknownSupervisorPropertiesException.UnknownProperty(property.getName().toString(),
				(property.getOrigin() != null) ? property.getOrigin().toString() : null,
				this.names.closest(property.getName()));
	}

	/**
	 * Every child named under {@code supervisor.children}: one that only a module's
	 * settings name is a child to them too (their error, not an unknown key).
	 */
	private static Set<String> childNames(Iterable<ConfigurationPropertySource> sources) {
		Set<String> names = new LinkedHashSet<>();
		for (ConfigurationPropertySource source : sources) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(CHILDREN::isAncestorOf)
					.stream()
					.filter((name) -> name.getNumberOfElements() > 3)
					.forEach((name) -> names.add(name.getElement(2, Form.ORIGINAL)));
			}
		}
		return names;
	}

	private static ConfigurationPropertyName child(String name) {
		// Why brackets for a dotted name: 'a.b' is one child, not a child 'a' with 'b'.
		return CHILDREN.append(name.contains(".") ? "[" + name + "]" : name);
	}

	/** One binding of the configuration: what bound, and what did not. */
	private static final class Pass {

		private final Binder binder;

		private final BindHandler handler = new NoUnboundElementsBindHandler(BindHandler.DEFAULT,
				new UnboundElementsSourceFilter());

		private final Set<ConfigurationProperty> unknown = new TreeSet<>();

		Pass(Binder binder) {
			this.binder = binder;
		}

		/**
		 * A group of one child: a fresh copy of the defaults, then the child's own over
		 * it.
		 */
		ChildSettingsGroup layered(String name, ChildSettingsGroup group) {
			ChildSettingsGroup defaults = bind(DEFAULTS.append(group.key()), Bindable.of(group.getClass()));
			ChildSettingsGroup settings = (defaults != null) ? defaults : BeanUtils.instantiateClass(group.getClass());
			bind(child(name).append(group.key()), Bindable.ofInstance(settings));
			return settings;
		}

		<T> @Nullable T bind(ConfigurationPropertyName name, Bindable<T> target) {
			try {
				return this.binder.bind(name, target, this.handler).orElse(null);
			}
			catch (BindException ex) {
				if (ex.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
					this.unknown.addAll(unbound.getUnboundProperties());
					return null;
				}
				throw ex;
			}
		}

	}

}
