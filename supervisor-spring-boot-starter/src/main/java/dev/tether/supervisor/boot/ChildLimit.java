package dev.tether.supervisor.boot;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.unit.DataSize;

import dev.tether.supervisor.ResourceLimit;
import dev.tether.supervisor.ResourceLimits;

/**
 * One {@code limits.*} setting, read from {@link ChildLimitsProperties}, the one place
 * the limits are written: each field there is a setting (its name, its description in the
 * metadata, its {@link Unit}), and sets the {@link ResourceLimits.Builder} method of the
 * same name. This class turns its text ('64', '64:128', 'infinity', '100MB', '1h') into a
 * {@link ResourceLimit}.
 */
final class ChildLimit {

	/**
	 * Every limit, as {@link ChildLimitsProperties} declares them. Why reflection: a list
	 * here would be a second spelling of the six limits, which could drift from the
	 * first; a field without its unit or its builder method fails the first use of this
	 * class.
	 */
	static final List<ChildLimit> ALL = Arrays.stream(ChildLimitsProperties.class.getDeclaredFields())
		.filter((field) -> !Modifier.isStatic(field.getModifiers()))
		.map(ChildLimit::new)
		.toList();

	private final String setting;

	private final Unit unit;

	private final Field field;

	private final Method setter;

	private ChildLimit(Field field) {
		this.setting = "limits." + DataObjectPropertyName.toDashedForm(field.getName());
		Measured measured = field.getAnnotation(Measured.class);
		Method setter = ReflectionUtils.findMethod(ResourceLimits.Builder.class, field.getName(), ResourceLimit.class);
		if (measured == null || setter == null) {
			throw new IllegalStateException(this.setting + " needs its @Measured unit in ChildLimitsProperties and "
					+ "ResourceLimits.Builder." + field.getName() + "(ResourceLimit)");
		}
		this.unit = measured.value();
		this.field = field;
		this.setter = setter;
		ReflectionUtils.makeAccessible(field);
	}

	/** The setting as errors name it, {@code limits.open-files}. */
	String setting() {
		return this.setting;
	}

	@Nullable String value(ChildProperties properties) {
		return (String) ReflectionUtils.getField(this.field, properties.getLimits());
	}

	/**
	 * Sets the limit {@code text} gives.
	 * @throws IllegalArgumentException saying what the setting takes
	 */
	void apply(ResourceLimits.Builder resources, String text) {
		String[] parts = text.trim().split(":", -1);
		if (parts.length > 2) {
			throw new IllegalArgumentException(expected(text));
		}
		long soft = parse(parts[0], text);
		long hard = (parts.length == 2) ? parse(parts[1], text) : soft;
		ReflectionUtils.invokeMethod(this.setter, resources, new ResourceLimit(soft, hard));
	}

	private long parse(String part, String text) {
		String value = part.trim();
		if (value.equals("infinity")) {
			return ResourceLimit.UNLIMITED;
		}
		try {
			long parsed = switch (this.unit) {
				case COUNT -> Long.parseLong(value);
				case SIZE -> DataSize.parse(value).toBytes();
				case SECONDS -> DurationStyle.detectAndParse(value, ChronoUnit.SECONDS).getSeconds();
			};
			if (parsed < 0) {
				throw new IllegalArgumentException(expected(text));
			}
			return parsed;
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(expected(text), ex);
		}
	}

	private String expected(String text) {
		return "must be " + this.unit.description + ", or 'soft:hard' of two, each at least 0 or 'infinity' (was '"
				+ text + "')";
	}

	/** What a limit's value counts. */
	enum Unit {

		COUNT("a number, e.g. '1024'"), SIZE("a size, e.g. '0', '100MB'"),
		SECONDS("a duration, e.g. '90s', '1h', or seconds");

		private final String description;

		Unit(String description) {
			this.description = description;
		}

	}

	/** Marks a field of {@link ChildLimitsProperties} as a limit, with its unit. */
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.FIELD)
	@interface Measured {

		Unit value();

	}

}
