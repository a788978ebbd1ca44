package dev.tether.supervisor.internal.identity;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.tether.supervisor.ChildKind;

/**
 * The environment markers stamped into every child at spawn. A process is only ever
 * recognised as ours through them (plus its start time and the boot id where recorded).
 */
public final class ChildMarkers {

	/** Set to {@code 1} in every child. */
	public static final String SUBPROCESS_MARKER_ENV = "TETHER_SUBPROCESS";

	/** The installation id of the supervisor that spawned the child. */
	public static final String INSTALLATION_ENV = "TETHER_INSTALLATION";

	/**
	 * The instance of the supervisor that spawned the child (one per state directory).
	 */
	public static final String INSTANCE_ENV = "TETHER_INSTANCE";

	private ChildMarkers() {
	}

	/**
	 * Returns the environment a child runs with: {@code base}, then {@code extra}, then
	 * the markers (which no configured variable can override).
	 */
	public static Map<String, String> stamp(Map<String, String> base, Map<String, String> extra, Owner owner,
			ChildKind kind, String name) {
		Map<String, String> environment = new LinkedHashMap<>(base);
		for (ChildKind each : ChildKind.values()) {
			environment.remove(each.nameKey());
		}
		environment.putAll(extra);
		environment.put(SUBPROCESS_MARKER_ENV, "1");
		environment.put(INSTALLATION_ENV, owner.installationId());
		environment.put(INSTANCE_ENV, owner.instanceId());
		environment.put(kind.nameKey(), name);
		return environment;
	}

}
