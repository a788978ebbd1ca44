package dev.tether.supervisor.boot;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A child named under {@code supervisor.children}, with the settings that modules add to
 * it ({@link ChildSettingsGroup}), each its own value over {@code supervisor.defaults}.
 */
public final class ConfiguredChild {

	private final String name;

	private final Map<Class<?>, ChildSettingsGroup> groups;

	ConfiguredChild(String name, List<ChildSettingsGroup> groups) {
		this.name = name;
		this.groups = groups.stream().collect(Collectors.toUnmodifiableMap(Object::getClass, Function.identity()));
	}

	/**
	 * The child's name.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * The child's settings of one group.
	 * @param <T> the group's type
	 * @param group the group's type, as listed in {@code META-INF/spring.factories}
	 * @return the settings: the child's own, over those of {@code supervisor.defaults}
	 * @throws IllegalArgumentException when no module lists that group
	 */
	public <T extends ChildSettingsGroup> T settings(Class<T> group) {
		ChildSettingsGroup settings = this.groups.get(group);
		if (settings == null) {
			throw new IllegalArgumentException(group.getName() + " is not listed in META-INF/spring.factories under "
					+ ChildSettingsGroup.class.getName());
		}
		return group.cast(settings);
	}

}
