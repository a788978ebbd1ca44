package dev.tether.supervisor.boot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Binds {@code supervisor.*} once, with the settings modules add to each child
 * ({@link ChildSettingsGroup}) and to the supervisor ({@link SupervisorSettingsGroup}),
 * and fails naming every key that bound to nothing, where it was set, and the setting it
 * most likely meant. Each child is bound from its own keys
 * ({@link SupervisorPropertySlices}): the settings those keys name, where they are known
 * ({@link ChildPropertiesBinding}), and a module's group only where the child or the
 * defaults set it.
 * <p>
 * Why Boot's {@link NoUnboundElementsBindHandler}, one instance for every bind: it knows
 * the names each bind used, in any relaxed spelling, so the last bind under a root (a
 * child's own settings, after its modules' groups; {@code supervisor}, after the
 * defaults) sees as unknown only what neither the starter nor a module bound. Why its
 * {@link UnboundElementsSourceFilter}: the process environment and the system properties
 * are shared with other software (supervisord sets {@code SUPERVISOR_*} in the
 * environment of every program it runs), so only what the application's configuration
 * says is checked; what they set is still bound.
 */
final class SupervisorPropertiesBinder {

	private static final ConfigurationPropertyName SUPERVISOR = ConfigurationPropertyName.of("supervisor");

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	private static final ConfigurationPropertyName DEFAULTS = ConfigurationPropertyName.of("supervisor.defaults");

	private final List<ChildSettingsGroup> groups;

	private final List<SupervisorSettingsGroup> supervisorGroups;

	private final SettingNames names;

	SupervisorPropertiesBinder(@Nullable ClassLoader classLoader) {
		SpringFactoriesLoader factories = SpringFactoriesLoader.forDefaultResourceLocation(classLoader);
		this.groups = factories.load(ChildSettingsGroup.class);
		this.supervisorGroups = factories.load(SupervisorSettingsGroup.class);
		this.names = new SettingNames(this.groups, this.supervisorGroups);
	}

	/**
	 * Binds the configuration of {@code environment}.
	 * @throws InvalidSupervisorConfigurationException naming every unknown key
	 */
	ConfiguredChildren bind(Environment environment) {
		SupervisorPropertySlices slices = new SupervisorPropertySlices(environment);
		Binder rest = slices.rest();
		Pass pass = new Pass();
		Map<String, ConfiguredChild> children = new LinkedHashMap<>();
		Map<String, ChildProperties> childProperties = new LinkedHashMap<>();
		// Why the defaults alone first: their names are then known with no child at all.
		this.groups.forEach((group) -> pass.bind(rest, DEFAULTS.append(group.key()), Bindable.of(group.getClass())));
		List<ChildSettingsGroup> groupsWithoutDefaults = this.groups.stream()
			.filter((group) -> !slices.restMayHold(DEFAULTS.append(group.key())))
			.toList();
		slices.forEachChild((name, binder, own) -> {
			// Why the settings named, where they are known: a bind asks for every setting
			// of its bean, whether or not the child sets it (see ChildPropertiesBinding).
			List<ChildSettingsGroup> settings = new ArrayList<>(this.groups.size());
			for (ChildSettingsGroup group : this.groups) {
				boolean unset = own != null && !own.remove(uniform(group.key()));
				settings.add((unset && groupsWithoutDefaults.contains(group))
						? BeanUtils.instantiateClass(group.getClass()) : pass.layered(rest, binder, name, group));
			}
			children.put(name, new ConfiguredChild(name, settings));
			// Why after the groups: the child's own check of unknown keys then knows
			// theirs. Why the whole bean where a key names no setting: its check then
			// names every unknown key, with where it was set.
			ChildProperties properties = (own != null && ChildPropertiesBinding.binds(own))
					? ChildPropertiesBinding.bind(child(name), own, (key, target) -> pass.bind(binder, key, target))
					: pass.bind(binder, child(name), Bindable.of(ChildProperties.class));
			if (properties != null) {
				childProperties.put(name, properties);
			}
		});
		this.supervisorGroups
			.forEach((group) -> pass.bind(rest, SUPERVISOR.append(group.key()), Bindable.of(group.getClass())));
		SupervisorProperties properties = pass.bind(rest, SUPERVISOR, Bindable.of(SupervisorProperties.class));
		if (!pass.unknown.isEmpty()) {
			throw new UnknownSupervisorPropertiesException(pass.unknown.stream().map(this::describe).toList());
		}
		properties = (properties != null) ? properties : new SupervisorProperties();
		properties.getChildren().putAll(childProperties);
		return new ConfiguredChildren(properties, children);
	}

	/**
	 * The settings of every child of {@code environment}, as
	 * {@link SupervisorProperties#getChildren()} holds them, with no check of unknown
	 * keys (see {@link SupervisorChildrenBinding}).
	 */
	static Map<String, ChildProperties> bindChildren(Environment environment) {
		SupervisorPropertySlices slices = new SupervisorPropertySlices(environment);
		Map<String, ChildProperties> children = new LinkedHashMap<>();
		slices.forEachChild((name, binder, own) -> {
			// Why the settings named here too: a refresh rebinds every child. A key that
			// names no setting (a module's group, or a misspelling, which the refresh
			// checks apart) binds to nothing in either way.
			ChildProperties properties = (own != null)
					? ChildPropertiesBinding.bind(child(name), own,
							(key, target) -> binder.bind(key, target).orElse(null))
					: binder.bind(child(name), Bindable.of(ChildProperties.class)).orElse(null);
			if (properties != null) {
				children.put(name, properties);
			}
		});
		return children;
	}

	private UnknownSupervisorPropertiesException.UnknownProperty describe(ConfigurationProperty property) {
		return new UnknownSupervisorPropertiesException.UnknownProperty(property.getName().toString(),
				(property.getOrigin() != null) ? property.getOrigin().toString() : null,
				this.names.closest(property.getName()));
	}

	private static String uniform(String key) {
		return ConfigurationPropertyName.of(key).getElement(0, Form.UNIFORM);
	}

	private static ConfigurationPropertyName child(String name) {
		// Why brackets for a dotted name: 'a.b' is one child, not a child 'a' with 'b';
		// and for a name no plain element may hold (the checks of the spec then name it).
		boolean plain = !name.contains(".") && ConfigurationPropertyName.isValid(name);
		return CHILDREN.append(plain ? name : "[" + name + "]");
	}

	/** One binding of the configuration: what bound, and what did not. */
	private static final class Pass {

		private final BindHandler handler = new NoUnboundElementsBindHandler(BindHandler.DEFAULT,
				new UnboundElementsSourceFilter());

		private final Set<ConfigurationProperty> unknown = new TreeSet<>();

		/**
		 * A group of one child: a fresh copy of the defaults, then the child's own over
		 * it.
		 */
		ChildSettingsGroup layered(Binder rest, Binder child, String name, ChildSettingsGroup group) {
			ChildSettingsGroup defaults = bind(rest, DEFAULTS.append(group.key()), Bindable.of(group.getClass()));
			ChildSettingsGroup settings = (defaults != null) ? defaults : BeanUtils.instantiateClass(group.getClass());
			bind(child, child(name).append(group.key()), Bindable.ofInstance(settings));
			return settings;
		}

		<T> @Nullable T bind(Binder binder, ConfigurationPropertyName name, Bindable<T> target) {
			try {
				return binder.bind(name, target, this.handler).orElse(null);
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
