package dev.tether.supervisor.boot;

/**
 * Settings that a module adds under {@code supervisor.<key>.*}, beside the starter's own.
 * The starter binds them in the same pass as every other {@code supervisor.*} key, so
 * that they are known: a key that binds to nothing fails startup as any other does. The
 * module reads them where it needs them (they are no bean of the starter's).
 * <p>
 * An implementation is a JavaBean with a public no-argument constructor, listed in its
 * module's {@code META-INF/spring.factories} under this interface's name, for the reason
 * {@link ChildSettingsGroup} gives.
 */
public interface SupervisorSettingsGroup {

	/**
	 * The group's key under {@code supervisor}, e.g. {@code mcp}.
	 * @return the key, in dashed form
	 */
	String key();

}
