package dev.tether.supervisor.boot;

import dev.tether.supervisor.ChildSpecBuilder;

/**
 * Adjusts the specification of a child configured under {@code supervisor.children},
 * after its properties were applied and before it is checked: how a module that adds
 * settings of its own under a child ({@link ChildSettingsGroup}, such as
 * {@code supervisor.children.<name>.mcp.*}) sets what they imply (a stdio child, its
 * kind). Every bean of this type is applied, in order, at start and on each configuration
 * refresh.
 */
@FunctionalInterface
public interface ChildSpecCustomizer {

	/**
	 * @param child the child: its name, and the settings modules add to it
	 * @param builder its specification so far
	 */
	void customize(ConfiguredChild child, ChildSpecBuilder builder);

}
