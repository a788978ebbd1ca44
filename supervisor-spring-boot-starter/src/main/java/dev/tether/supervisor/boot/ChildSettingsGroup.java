package dev.tether.supervisor.boot;

/**
 * Settings that a module adds under every child,
 * {@code supervisor.children.<name>.<key>.*}, each of which may also be set once under
 * {@code supervisor.defaults.<key>.*}. The starter binds them with the child's own
 * settings, in the same pass: the child's value over the default, and a key that binds to
 * nothing fails startup as any other does. A {@link ChildSpecCustomizer} reads them
 * through {@link ConfiguredChild#settings(Class)}.
 * <p>
 * An implementation is a JavaBean with a public no-argument constructor (each setting
 * {@code null} unless set), listed in its module's {@code META-INF/spring.factories}
 * under this interface's name. Why there and not as a bean: its settings are then known
 * wherever the module is on the class path, whether or not the module's
 * auto-configuration applies.
 */
public interface ChildSettingsGroup {

	/**
	 * The group's key under a child, e.g. {@code mcp}.
	 * @return the key, in dashed form
	 */
	String key();

}
