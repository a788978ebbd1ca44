package dev.tether.supervisor.boot;

import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;
import org.springframework.util.ReflectionUtils;

/**
 * Binds a child's {@link ChildProperties} setting by setting: only the settings its keys
 * name, each through the binder and the handler that bind the whole bean otherwise.
 * <p>
 * Why: Boot's binder asks every source for each of a bean's settings (over thirty for a
 * child, and the settings of their groups) whether or not the configuration names it,
 * while a child sets a handful. That asking was two thirds of the binding of 1,000
 * children (docs/benchmarks-history.md). Each setting is bound as the binder binds a
 * bean's property: its type with its generics, its field's annotations, its current value
 * supplied (a map merges over it), then set through its setter, or bound into the group
 * its getter returns. What follows from a setting (its conversion, its failure, the check
 * of unknown keys under it) is then the binder's, as for the whole bean.
 */
final class ChildPropertiesBinding {

	/** Each setting of a child, by its name's uniform form. */
	private static final Map<String, Setting> SETTINGS = settings();

	private ChildPropertiesBinding() {
	}

	/** Whether each of {@code names} (in uniform form) is a setting of a child. */
	static boolean binds(Set<String> names) {
		return SETTINGS.keySet().containsAll(names);
	}

	/**
	 * Binds the settings among {@code names} under {@code child}, leaving out a name that
	 * is no setting (see {@link #binds}), as the whole bean's binding leaves out a key it
	 * has no setting for; {@code null} when none bound.
	 */
	static @Nullable ChildProperties bind(ConfigurationPropertyName child, Set<String> names, Binding binding) {
		ChildProperties properties = new ChildProperties();
		boolean bound = false;
		for (String name : names) {
			Setting setting = SETTINGS.get(name);
			if (setting != null) {
				bound |= setting.bind(properties, child, binding);
			}
		}
		return bound ? properties : null;
	}

	private static Map<String, Setting> settings() {
		Map<String, Setting> settings = new LinkedHashMap<>();
		for (BeanSetting setting : BeanSetting.of(ChildProperties.class)) {
			Field field = ReflectionUtils.findField(ChildProperties.class, setting.descriptor().getName());
			Annotation[] annotations = (field != null) ? field.getDeclaredAnnotations() : new Annotation[0];
			settings.put(ConfigurationPropertyName.of(setting.name()).getElement(0, Form.UNIFORM),
					new Setting(setting.name(), setting.getter(), setting.setter(),
							ResolvableType.forMethodReturnType(setting.getter(), ChildProperties.class), annotations));
		}
		return settings;
	}

	/** A bind of one name, as {@code Binder.bind} with the pass's handler. */
	@FunctionalInterface
	interface Binding {

		@Nullable Object bind(ConfigurationPropertyName name, Bindable<Object> target);

	}

	/** One JavaBean property of {@link ChildProperties}. */
	private record Setting(String name, Method getter, @Nullable Method setter, ResolvableType type,
			Annotation[] annotations) {

		boolean bind(ChildProperties properties, ConfigurationPropertyName child, Binding binding) {
			Object current = ReflectionUtils.invokeMethod(this.getter, properties);
			Bindable<Object> target = Bindable.<Object>of(this.type)
				.withSuppliedValue(() -> current)
				.withAnnotations(this.annotations);
			Object bound = binding.bind(child.append(this.name), target);
			if (bound == null) {
				return false;
			}
			if (this.setter != null) {
				ReflectionUtils.invokeMethod(this.setter, properties, bound);
			}
			else if (bound != current) {
				throw new IllegalStateException("No setter found for property: " + this.name);
			}
			return true;
		}

	}

}
