package dev.tether.supervisor.boot;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildSpecBuilder;
import dev.tether.supervisor.Executables;
import dev.tether.supervisor.ExitCodes;
import dev.tether.supervisor.InvalidChildSpecException;
import dev.tether.supervisor.ResourceLimits;
import dev.tether.supervisor.Signals;
import dev.tether.supervisor.SocketActivation;
import dev.tether.supervisor.SpawnException;

/**
 * Turns the bound properties into checked child specifications. A setting a child leaves
 * unset comes from {@code supervisor.defaults}; one set in neither place is not touched,
 * so {@link ChildSpecBuilder} keeps its default (the only place defaults are written).
 * Anything unusable is reported by the property that set it.
 */
final class ChildSpecFactory {

	private static final String PREFIX = "supervisor.children.";

	private static final String DEFAULTS = "supervisor.defaults.";

	private ChildSpecFactory() {
	}

	static List<ChildSpec> from(ConfiguredChildren configured, List<ChildSpecCustomizer> customizers) {
		SupervisorProperties properties = configured.properties();
		ChildProperties defaults = properties.getDefaults();
		if (!defaults.getCommand().isEmpty()) {
			throw new InvalidSupervisorConfigurationException("supervisor.defaults.command",
					"cannot be set: every child names its own command", null);
		}
		if (!defaults.getDependsOn().isEmpty()) {
			throw new InvalidSupervisorConfigurationException("supervisor.defaults.depends-on",
					"cannot be set: every child names what it depends on", null);
		}
		// Why once: System.getenv() is an unmodifiable view; the executable check only
		// needs its PATH, so no child copies the JVM's environment.
		Map<String, String> inherited = System.getenv();
		List<ChildSpec> specs = new ArrayList<>(properties.getChildren().size());
		properties.getChildren()
			.forEach((name, child) -> specs.add(new Layers(name, child, defaults).spec(inherited,
					configured.get(name).orElseThrow(), customizers)));
		try {
			ChildSpec.checkDependencies(specs);
		}
		catch (InvalidChildSpecException ex) {
			throw new InvalidSupervisorConfigurationException(PREFIX + ex.childName() + "." + ex.setting(), ex.reason(),
					ex);
		}
		return specs;
	}

	/**
	 * One child's settings over the defaults, remembering which settings the child
	 * inherited.
	 */
	private static final class Layers {

		private final String name;

		private final ChildProperties child;

		private final ChildProperties defaults;

		private final Set<String> inherited = new HashSet<>();

		Layers(String name, ChildProperties child, ChildProperties defaults) {
			this.name = name;
			this.child = child;
			this.defaults = defaults;
		}

		ChildSpec spec(Map<String, String> inheritedEnvironment, ConfiguredChild configured,
				List<ChildSpecCustomizer> customizers) {
			ChildSpecBuilder builder = ChildSpec.builder(this.name, this.child.getCommand());
			Map<String, String> environment = new LinkedHashMap<>(this.defaults.getEnvironment());
			environment.putAll(this.child.getEnvironment());
			builder.environment(environment);
			apply("kind", ChildProperties::getKind, builder::kind);
			apply("working-directory", ChildProperties::getWorkingDirectory, builder::workingDirectory);
			apply("autostart", ChildProperties::getAutostart, builder::autostart);
			apply("port", ChildProperties::getPort, builder::port);
			apply("startup-timeout", ChildProperties::getStartupTimeout, builder::startupTimeout);
			apply("startup-delay", ChildProperties::getStartupDelay, builder::startupDelay);
			apply("probe-address", ChildProperties::getProbeAddress, builder::probeAddress);
			socketActivation(builder);
			apply("restart", ChildProperties::getRestart, builder::restart);
			apply("restart-mode", ChildProperties::getRestartMode, builder::restartMode);
			apply("backoff.initial", (settings) -> settings.getBackoff().getInitial(), builder::backoffInitial);
			apply("backoff.max", (settings) -> settings.getBackoff().getMax(), builder::backoffMax);
			apply("backoff.multiplier", (settings) -> settings.getBackoff().getMultiplier(),
					builder::backoffMultiplier);
			apply("backoff.jitter", (settings) -> settings.getBackoff().getJitter(), builder::backoffJitter);
			apply("max-restarts", ChildProperties::getMaxRestarts, builder::maxRestarts);
			apply("restart-window", ChildProperties::getRestartWindow, builder::restartWindow);
			apply("stable-after", ChildProperties::getStableAfter, builder::stableAfter);
			apply("stop-signal", ChildProperties::getStopSignal,
					(signal) -> builder.stopSignal(signalNumber("stop-signal", signal)));
			apply("reload-signal", ChildProperties::getReloadSignal,
					(signal) -> builder.reloadSignal(signalNumber("reload-signal", signal)));
			apply("stop-timeout", ChildProperties::getStopTimeout, builder::stopTimeout);
			apply("success-exit-codes", ChildProperties::getSuccessExitCodes,
					(exits) -> builder.successExitCodes(exitCodes("success-exit-codes", exits)));
			apply("restart-prevent-exit-codes", ChildProperties::getRestartPreventExitCodes,
					(exits) -> builder.restartPreventExitCodes(exitCodes("restart-prevent-exit-codes", exits)));
			apply("log.file", (settings) -> settings.getLog().getFile(), builder::logFile);
			apply("log.file-enabled", (settings) -> settings.getLog().getFileEnabled(), builder::logFileEnabled);
			apply("log.max-size", (settings) -> settings.getLog().getMaxSize(),
					(size) -> builder.logMaxSize(size.toBytes()));
			apply("log.max-history", (settings) -> settings.getLog().getMaxHistory(), builder::logMaxHistory);
			apply("log.logger", (settings) -> settings.getLog().getLogger(), builder::logToLogger);
			apply("log.stderr-level", (settings) -> settings.getLog().getStderrLevel(), builder::logStderrLevel);
			apply("log.max-line-length", (settings) -> settings.getLog().getMaxLineLength(),
					(length) -> builder.logMaxLineLength((int) Math.min(length.toBytes(), Integer.MAX_VALUE)));
			apply("contain-descendants", ChildProperties::getContainDescendants, builder::containDescendants);
			apply("readiness.http-get", (settings) -> settings.getReadiness().getHttpGet(), builder::readinessHttpGet);
			apply("readiness.period", (settings) -> settings.getReadiness().getPeriod(), builder::readinessPeriod);
			apply("readiness.timeout", (settings) -> settings.getReadiness().getTimeout(), builder::readinessTimeout);
			apply("readiness.notify", (settings) -> settings.getReadiness().getNotify(), builder::readinessNotify);
			apply("readiness.log-line", (settings) -> settings.getReadiness().getLogLine(), builder::readinessLogLine);
			apply("liveness.http-get", (settings) -> settings.getLiveness().getHttpGet(), builder::livenessHttpGet);
			apply("liveness.tcp", (settings) -> settings.getLiveness().getTcp(), builder::livenessTcp);
			apply("liveness.period", (settings) -> settings.getLiveness().getPeriod(), builder::livenessPeriod);
			apply("liveness.timeout", (settings) -> settings.getLiveness().getTimeout(), builder::livenessTimeout);
			apply("liveness.failure-threshold", (settings) -> settings.getLiveness().getFailureThreshold(),
					builder::livenessFailureThreshold);
			apply("liveness.watchdog", (settings) -> settings.getLiveness().getWatchdog(), builder::livenessWatchdog);
			apply("critical", ChildProperties::getCritical, builder::critical);
			apply("restart-with-dependencies", ChildProperties::getRestartWithDependencies,
					builder::restartWithDependencies);
			builder.dependsOn(this.child.getDependsOn());
			builder.resources(resources());
			customizers.forEach((customizer) -> customizer.customize(configured, builder));
			ChildSpec spec;
			try {
				spec = builder.build();
			}
			catch (InvalidChildSpecException ex) {
				throw new InvalidSupervisorConfigurationException(property(ex.setting()), ex.reason(), ex);
			}
			checkWorkingDirectoryAndExecutable(spec, inheritedEnvironment);
			return spec;
		}

		private ResourceLimits resources() {
			ResourceLimits.Builder resources = ResourceLimits.builder();
			for (ChildLimit limit : ChildLimit.ALL) {
				apply(limit.setting(), limit::value, (text) -> {
					try {
						limit.apply(resources, text);
					}
					catch (IllegalArgumentException ex) {
						throw new InvalidSupervisorConfigurationException(property(limit.setting()), ex.getMessage(),
								ex);
					}
				});
			}
			apply("max-memory", ChildProperties::getMaxMemory, (size) -> resources.maxMemory(size.toBytes()));
			apply("max-memory-samples", ChildProperties::getMaxMemorySamples, resources::maxMemorySamples);
			apply("oom-score-adjust", ChildProperties::getOomScoreAdjust, resources::oomScoreAdjust);
			return resources.build();
		}

		/**
		 * {@code socket-activation.*}, each setting the child or the defaults leave unset
		 * taken from {@link SocketActivation#DISABLED}; the builder is not touched when
		 * none is set.
		 */
		private void socketActivation(ChildSpecBuilder builder) {
			Boolean enabled = layered("socket-activation.enabled",
					(settings) -> settings.getSocketActivation().getEnabled());
			String address = layered("socket-activation.address",
					(settings) -> settings.getSocketActivation().getAddress());
			Integer backlog = layered("socket-activation.backlog",
					(settings) -> settings.getSocketActivation().getBacklog());
			Integer fd = layered("socket-activation.fd", (settings) -> settings.getSocketActivation().getFd());
			if (enabled == null && address == null && backlog == null && fd == null) {
				return;
			}
			SocketActivation unset = SocketActivation.DISABLED;
			builder.socketActivation(new SocketActivation((enabled != null) ? enabled : unset.enabled(),
					(address != null) ? address : unset.address(), (backlog != null) ? backlog : unset.backlog(),
					(fd != null) ? fd : unset.fd()));
		}

		private <T> void apply(String setting, Function<ChildProperties, @Nullable T> value, Consumer<T> setter) {
			T layered = layered(setting, value);
			if (layered != null) {
				setter.accept(layered);
			}
		}

		/**
		 * The child's own value of {@code setting}, else the default's (remembered as
		 * inherited), else {@code null}.
		 */
		private <T> @Nullable T layered(String setting, Function<ChildProperties, @Nullable T> value) {
			T own = value.apply(this.child);
			if (own != null) {
				return own;
			}
			T fromDefaults = value.apply(this.defaults);
			if (fromDefaults != null) {
				this.inherited.add(setting);
			}
			return fromDefaults;
		}

		/**
		 * The property that set {@code setting} for this child: its own, else the
		 * inherited default.
		 */
		String property(String setting) {
			if (setting.equals("name")) {
				return PREFIX + this.name;
			}
			boolean fromDefaults = this.inherited.contains(setting) || this.defaults.getEnvironment()
				.keySet()
				.stream()
				.filter((key) -> !this.child.getEnvironment().containsKey(key))
				.anyMatch((key) -> ChildSpec.environmentSetting(key).equals(setting));
			return (fromDefaults ? DEFAULTS : PREFIX + this.name + ".") + setting;
		}

		/**
		 * Exit codes and signal names, as systemd reads {@code SuccessExitStatus=}: a
		 * number is an exit code, a name such as {@code SIGTERM} or {@code TERM} a
		 * signal.
		 */
		private ExitCodes exitCodes(String setting, List<String> values) {
			Set<Integer> codes = new HashSet<>();
			Set<Integer> signals = new HashSet<>();
			for (String value : values) {
				String trimmed = value.trim();
				try {
					if (trimmed.chars().allMatch(Character::isDigit) && !trimmed.isEmpty()) {
						codes.add(Integer.parseInt(trimmed));
					}
					else {
						signals.add(Signals.number(trimmed));
					}
				}
				catch (IllegalArgumentException ex) {
					throw new InvalidSupervisorConfigurationException(property(setting),
							"'" + value + "' is neither an exit code (0 to 255) nor a signal name", ex);
				}
			}
			try {
				return new ExitCodes(codes, signals);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSupervisorConfigurationException(property(setting), ex.getMessage(), ex);
			}
		}

		private int signalNumber(String setting, String value) {
			try {
				return Signals.number(value);
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidSupervisorConfigurationException(property(setting), ex.getMessage(), ex);
			}
		}

		private void checkWorkingDirectoryAndExecutable(ChildSpec spec, Map<String, String> inheritedEnvironment) {
			if (spec.workingDirectory() != null && !Files.isDirectory(spec.workingDirectory())) {
				throw new InvalidSupervisorConfigurationException(property("working-directory"),
						"names " + spec.workingDirectory() + ", which is not an existing directory", null);
			}
			Map<String, String> pathSource = spec.environment().containsKey("PATH") ? spec.environment()
					: inheritedEnvironment;
			try {
				Executables.resolve(spec.command(), pathSource, spec.workingDirectory());
			}
			catch (SpawnException ex) {
				throw new InvalidSupervisorConfigurationException(PREFIX + this.name + ".command", ex.getMessage(), ex);
			}
		}

	}

}
