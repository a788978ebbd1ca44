package dev.tether.supervisor.boot;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;

/**
 * The names of the settings, read from the properties classes (the same JavaBean
 * properties the binder binds), to find the one a misspelled key most likely meant.
 */
final class SettingNames {

	private static final ConfigurationPropertyName CHILDREN = ConfigurationPropertyName.of("supervisor.children");

	private static final int CHILD_DEPTH = 3;

	/** Under {@code supervisor}: its own settings, and every one of defaults. */
	private final List<String> supervisor = new ArrayList<>();

	/** Under {@code supervisor.children.<name>}. */
	private final List<String> child = new ArrayList<>();

	SettingNames(List<ChildSettingsGroup> groups, List<SupervisorSettingsGroup> supervisorGroups) {
		collect("", ChildProperties.class, this.child);
		groups.forEach((group) -> collect(group.key() + ".", group.getClass(), this.child));
		collect("", SupervisorProperties.class, this.supervisor);
		groups.forEach((group) -> collect("defaults." + group.key() + ".", group.getClass(), this.supervisor));
		supervisorGroups.forEach((group) -> collect(group.key() + ".", group.getClass(), this.supervisor));
	}

	/**
	 * The setting {@code unknown} most likely meant, as a full name, or {@code null} when
	 * none is close.
	 */
	@Nullable String closest(ConfigurationPropertyName unknown) {
		boolean ofAChild = CHILDREN.isAncestorOf(unknown) && unknown.getNumberOfElements() > CHILD_DEPTH;
		int depth = ofAChild ? CHILD_DEPTH : 1;
		String written = uniform(unknown, depth);
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : ofAChild ? this.child : this.supervisor) {
			int distance = distance(written, uniform(ConfigurationPropertyName.of(candidate), 0));
			if (distance < bestDistance) {
				best = candidate;
				bestDistance = distance;
			}
		}
		// Why this bound: a slip of a letter or two, or a transposition, in a name of any
		// length, but not a different word.
		if (best == null || bestDistance > Math.max(2, written.length() / 4)) {
			return null;
		}
		return unknown.chop(depth) + "." + best;
	}

	/** The elements after the first {@code from}, without dashes or case. */
	private static String uniform(ConfigurationPropertyName name, int from) {
		StringBuilder uniform = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements(); i++) {
			uniform.append((i > from) ? "." : "").append(name.getElement(i, Form.UNIFORM));
		}
		return uniform.toString();
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/**
	 * The settings of a properties class: a property with a setter, a map or a list is a
	 * setting; one without a setter is a nested group. A deprecated name is never
	 * suggested.
	 */
	private static void collect(String prefix, Class<?> type, List<String> names) {
		for (BeanSetting setting : BeanSetting.of(type)) {
			if (setting.getter().isAnnotationPresent(Deprecated.class)) {
				continue;
			}
			String name = prefix + setting.name();
			if (setting.isGroup()) {
				collect(name + ".", setting.descriptor().getPropertyType(), names);
			}
			else {
				names.add(name);
			}
		}
	}

}
