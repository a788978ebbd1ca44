package dev.tether.supervisor.boot;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The children of the configuration as the starter bound them, once: every name under
 * {@code supervisor.children}, including one that only a module's settings name, with
 * each module's settings ({@link ChildSettingsGroup}).
 */
public final class ConfiguredChildren {

	private final SupervisorProperties properties;

	private final Map<String, ConfiguredChild> children;

	ConfiguredChildren(SupervisorProperties properties, Map<String, ConfiguredChild> children) {
		this.properties = properties;
		this.children = Collections.unmodifiableMap(new LinkedHashMap<>(children));
	}

	SupervisorProperties properties() {
		return this.properties;
	}

	/**
	 * Every configured child, in the order of the configuration.
	 * @return the children
	 */
	public Collection<ConfiguredChild> all() {
		return this.children.values();
	}

	/**
	 * One configured child.
	 * @param name its name
	 * @return the child, or empty when no setting names it
	 */
	public Optional<ConfiguredChild> get(String name) {
		return Optional.ofNullable(this.children.get(name));
	}

}
