package dev.tether.supervisor;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.resources.ThisProcess;

/**
 * The checks of a child's {@link ResourceLimits}, each throwing an
 * {@link InvalidChildSpecException} that names the setting and the allowed range. Beyond
 * their form, limits and the OOM score are checked against what this process may give its
 * children: a hard limit above its own, or a score below its own, needs
 * {@code CAP_SYS_RESOURCE}, and the launcher would otherwise refuse to start the command
 * at every attempt.
 */
final class ResourceChecks {

	/** The most samples in a row {@code max-memory-samples} may ask for. */
	static final int MAX_MEMORY_SAMPLES = 1000;

	private ResourceChecks() {
	}

	static void check(String name, ResourceLimits resources) {
		Objects.requireNonNull(resources, "resources");
		// Why only then: most children set none, and a spec is built for each of them at
		// every start and refresh.
		boolean privileged = resources.appliedAtLaunch() && ThisProcess.hasSysResource();
		Map<String, Long> own = (resources.appliedAtLaunch() && !privileged) ? ThisProcess.hardLimits() : Map.of();
		for (LimitedResource resource : LimitedResource.values()) {
			limit(name, "limits." + resource.settingName(), resources.limit(resource),
					own.get(resource.procLimitsRow()));
		}
		if (resources.maxMemory() != null && resources.maxMemory() <= 0) {
			throw new InvalidChildSpecException(name, "max-memory",
					"must be a positive size (was " + resources.maxMemory() + " bytes)");
		}
		if (resources.maxMemorySamples() < 1 || resources.maxMemorySamples() > MAX_MEMORY_SAMPLES) {
			throw new InvalidChildSpecException(name, "max-memory-samples",
					"must be between 1 and " + MAX_MEMORY_SAMPLES + " (was " + resources.maxMemorySamples() + ")");
		}
		oomScoreAdjust(name, resources.oomScoreAdjust(), privileged);
	}

	/**
	 * @param own this process's hard limit, or {@code null} when it may raise it or it is
	 * unreadable
	 */
	private static void limit(String name, String setting, @Nullable ResourceLimit limit, @Nullable Long own) {
		if (limit != null && own != null && own >= 0 && limit.hard() > own) {
			throw new InvalidChildSpecException(name, setting,
					"(" + limit + ") has a hard limit above this process's (" + ResourceLimit.text(own)
							+ "), which it cannot raise without CAP_SYS_RESOURCE: allowed 0 to "
							+ ResourceLimit.text(own));
		}
	}

	private static void oomScoreAdjust(String name, @Nullable Integer value, boolean privileged) {
		if (value == null) {
			return;
		}
		if (value < -1000 || value > 1000) {
			throw new InvalidChildSpecException(name, "oom-score-adjust",
					"must be between -1000 and 1000 (was " + value + ")");
		}
		OptionalLong own = ThisProcess.oomScoreAdjust();
		if (!privileged && own.isPresent() && value < own.getAsLong()) {
			throw new InvalidChildSpecException(name, "oom-score-adjust",
					"(" + value + ") is below this process's (" + own.getAsLong()
							+ "), which it cannot lower without CAP_SYS_RESOURCE: allowed " + own.getAsLong()
							+ " to 1000");
		}
	}

}
