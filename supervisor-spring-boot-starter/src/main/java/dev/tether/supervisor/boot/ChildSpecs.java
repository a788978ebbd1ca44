package dev.tether.supervisor.boot;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.InvalidChildSpecException;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.os.Posix;
import dev.tether.supervisor.spawn.SpawnException;
import dev.tether.supervisor.spawn.Spawner;

/**
 * Turns the bound properties into checked child specifications: every child setting falls back to
 * {@code supervisor.defaults}, then to the contract's default; anything unusable is reported by property name.
 */
final class ChildSpecs {

	private static final String PREFIX = "supervisor.children.";

	private ChildSpecs() {
	}

	static List<ChildSpec> from(SupervisorProperties properties) {
		SupervisorProperties.Child defaults = properties.getDefaults();
		if (!defaults.getCommand().isEmpty()) {
			throw new InvalidSupervisorConfigurationException("supervisor.defaults.command",
					"cannot be set: every child names its own command", null);
		}
		List<ChildSpec> specs = new ArrayList<>();
		properties.getChildren().forEach((name, child) -> specs.add(from(name, child, defaults)));
		return specs;
	}

	private static ChildSpec from(String name, SupervisorProperties.Child child, SupervisorProperties.Child defaults) {
		Map<String, String> environment = new LinkedHashMap<>(defaults.getEnvironment());
		environment.putAll(child.getEnvironment());
		Path workingDirectory = pick(child, defaults, SupervisorProperties.Child::getWorkingDirectory, null);
		ChildSpec.Builder builder = ChildSpec.builder(name, child.getCommand())
			.kind(pick(child, defaults, SupervisorProperties.Child::getKind, ChildKind.AGENT))
			.environment(environment)
			.workingDirectory(workingDirectory)
			.autostart(pick(child, defaults, SupervisorProperties.Child::getAutostart, true))
			.port(pick(child, defaults, SupervisorProperties.Child::getPort, null))
			.startupTimeout(pick(child, defaults, SupervisorProperties.Child::getStartupTimeout, Duration.ofSeconds(60)))
			.restart(pick(child, defaults, SupervisorProperties.Child::getRestart, RestartPolicy.ON_FAILURE))
			.backoff(backoff(child, defaults))
			.maxRestarts(pick(child, defaults, SupervisorProperties.Child::getMaxRestarts, 5))
			.restartWindow(pick(child, defaults, SupervisorProperties.Child::getRestartWindow, Duration.ofSeconds(60)))
			.stableAfter(pick(child, defaults, SupervisorProperties.Child::getStableAfter, Duration.ofSeconds(10)))
			.stopSignal(signal(name, pick(child, defaults, SupervisorProperties.Child::getStopSignal, "TERM")))
			.stopTimeout(pick(child, defaults, SupervisorProperties.Child::getStopTimeout, Duration.ofSeconds(10)))
			.logFile(pick(child, defaults, (settings) -> settings.getLog().getFile(), null));
		ChildSpec spec;
		try {
			spec = builder.build();
		}
		catch (InvalidChildSpecException ex) {
			String setting = ex.setting();
			String property = "name".equals(setting) ? PREFIX + name : PREFIX + name + "." + setting;
			throw new InvalidSupervisorConfigurationException(property,
					ex.getMessage().substring(ex.getMessage().indexOf(setting) + setting.length()).trim(), ex);
		}
		checkExecutable(spec);
		return spec;
	}

	private static void checkExecutable(ChildSpec spec) {
		if (spec.workingDirectory() != null && !Files.isDirectory(spec.workingDirectory())) {
			throw new InvalidSupervisorConfigurationException(PREFIX + spec.name() + ".working-directory",
					"names " + spec.workingDirectory() + ", which is not an existing directory", null);
		}
		Map<String, String> environment = new LinkedHashMap<>(System.getenv());
		environment.putAll(spec.environment());
		try {
			Spawner.resolveExecutable(spec.command(), environment, spec.workingDirectory());
		}
		catch (SpawnException ex) {
			throw new InvalidSupervisorConfigurationException(PREFIX + spec.name() + ".command", ex.getMessage(), ex);
		}
	}

	private static ChildSpec.Backoff backoff(SupervisorProperties.Child child, SupervisorProperties.Child defaults) {
		ChildSpec.Backoff fallback = ChildSpec.Backoff.DEFAULT;
		return new ChildSpec.Backoff(
				pick(child, defaults, (settings) -> settings.getBackoff().getInitial(), fallback.initial()),
				pick(child, defaults, (settings) -> settings.getBackoff().getMax(), fallback.max()),
				pick(child, defaults, (settings) -> settings.getBackoff().getMultiplier(), fallback.multiplier()),
				pick(child, defaults, (settings) -> settings.getBackoff().getJitter(), fallback.jitter()));
	}

	private static int signal(String name, String value) {
		try {
			return Posix.signalNumber(value);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidSupervisorConfigurationException(PREFIX + name + ".stop-signal", ex.getMessage(), ex);
		}
	}

	private static <T> T pick(SupervisorProperties.Child child, SupervisorProperties.Child defaults,
			Function<SupervisorProperties.Child, T> setting, T fallback) {
		T own = setting.apply(child);
		if (own != null) {
			return own;
		}
		T inherited = setting.apply(defaults);
		return (inherited != null) ? inherited : fallback;
	}

}
