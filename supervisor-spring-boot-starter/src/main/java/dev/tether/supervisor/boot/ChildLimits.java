package dev.tether.supervisor.boot;

import java.time.temporal.ChronoUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;

import dev.tether.supervisor.ResourceLimit;
import dev.tether.supervisor.ResourceLimits;

/**
 * The {@code limits.*} settings: each one's property, its unit, and how its text ('64',
 * '64:128', 'infinity', '100MB', '1h') becomes a {@link ResourceLimit}.
 */
enum ChildLimits {

	OPEN_FILES("open-files", Unit.COUNT, ChildLimitsProperties::getOpenFiles, ResourceLimits.Builder::openFiles),

	PROCESSES("processes", Unit.COUNT, ChildLimitsProperties::getProcesses, ResourceLimits.Builder::processes),

	CORE_SIZE("core-size", Unit.SIZE, ChildLimitsProperties::getCoreSize, ResourceLimits.Builder::coreSize),

	FILE_SIZE("file-size", Unit.SIZE, ChildLimitsProperties::getFileSize, ResourceLimits.Builder::fileSize),

	CPU_TIME("cpu-time", Unit.SECONDS, ChildLimitsProperties::getCpuTime, ResourceLimits.Builder::cpuTime),

	ADDRESS_SPACE("address-space", Unit.SIZE, ChildLimitsProperties::getAddressSpace,
			ResourceLimits.Builder::addressSpace);

	private final String setting;

	private final Unit unit;

	private final Function<ChildLimitsProperties, @Nullable String> value;

	private final BiConsumer<ResourceLimits.Builder, ResourceLimit> setter;

	ChildLimits(String name, Unit unit, Function<ChildLimitsProperties, @Nullable String> value,
			BiConsumer<ResourceLimits.Builder, ResourceLimit> setter) {
		this.setting = "limits." + name;
		this.unit = unit;
		this.value = value;
		this.setter = setter;
	}

	/** The setting as errors name it, {@code limits.open-files}. */
	String setting() {
		return this.setting;
	}

	@Nullable String value(ChildProperties properties) {
		return this.value.apply(properties.getLimits());
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
		this.setter.accept(resources, new ResourceLimit(soft, hard));
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

	private enum Unit {

		COUNT("a number, e.g. '1024'"), SIZE("a size, e.g. '0', '100MB'"),
		SECONDS("a duration, e.g. '90s', '1h', or seconds");

		private final String description;

		Unit(String description) {
			this.description = description;
		}

	}

}
