package dev.tether.supervisor.boot;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * A JavaBean property of a properties class that the binder binds, with its name in
 * dashed form.
 * <p>
 * Why one walk: the binding of a child's named settings and the suggestions for a
 * misspelled key must both see the settings the binder sees; each reading the class its
 * own way could let them drift apart.
 *
 * @param name the property's name in dashed form, as written in configuration
 * @param descriptor the property
 * @param getter its read method
 */
record BeanSetting(String name, PropertyDescriptor descriptor, Method getter) {

	/**
	 * The properties of {@code type} the binder binds, in the order the bean lists them.
	 */
	static List<BeanSetting> of(Class<?> type) {
		List<BeanSetting> settings = new ArrayList<>();
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = descriptor.getReadMethod();
			if (getter != null && getter.getDeclaringClass() != Object.class) {
				settings.add(
						new BeanSetting(DataObjectPropertyName.toDashedForm(descriptor.getName()), descriptor, getter));
			}
		}
		return settings;
	}

	@Nullable Method setter() {
		return this.descriptor.getWriteMethod();
	}

	/**
	 * Whether the property is a group of settings: one with no setter that is not a map
	 * or a list, so the binder binds into the instance its getter returns.
	 */
	boolean isGroup() {
		Class<?> type = this.descriptor.getPropertyType();
		return setter() == null && !Map.class.isAssignableFrom(type) && !Collection.class.isAssignableFrom(type);
	}

}
