package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.output.LogSettings;

/**
 * Everything the supervisor needs to know about one child. Build with
 * {@link #builder(String, List)}; every setting but the name and command has a default,
 * and the {@link ChildSpecBuilder} is the one place those defaults are written
 * (configuration layers apply only what a user set).
 *
 * @param name the child's name: letters, digits, {@code .}, {@code _} and {@code -},
 * starting with a letter or digit
 * @param kind {@link ChildKind#AGENT} or {@link ChildKind#MCP}
 * @param command the executable, then its arguments
 * @param environment extra variables (the JVM's environment is inherited); keys without
 * {@code =}, keys and values without NUL, and no key in the markers' {@code TETHER_}
 * namespace
 * @param workingDirectory where it runs, or {@code null} for the JVM's working directory
 * @param autostart whether it starts with the supervisor
 * @param port the port it listens on, or {@code null}
 * @param startupTimeout how long a child with a port may take to accept connections
 * @param restart when it is restarted
 * @param backoff the delays between restarts
 * @param maxRestarts how many restarts {@code restartWindow} allows before the child is
 * {@code FAILED}
 * @param restartWindow the breaker's window
 * @param stableAfter the uptime that resets backoff and breaker
 * @param stopSignal the signal that asks it to stop
 * @param stopTimeout how long it may take to stop before SIGKILL
 * @param log where stdout and stderr go: a rotated file, the application's logging, or
 * both
 * @param containDescendants whether every descendant of the child ends with it and with
 * the supervisor, through a shepherd process (where the launcher is in force; elsewhere
 * only the child's process group is contained)
 * @param dependsOn the children it starts after (once they are {@code RUNNING}) and stops
 * before
 * @param readiness how it is found ready while it starts (with a port): the port accepts,
 * or {@code http-get}
 * @param liveness how it is found alive once {@code RUNNING}, if at all; failing it
 * {@code failureThreshold} times in a row restarts it
 * @param critical whether its {@code FAILED} state turns the supervisor's health
 * {@code DOWN}
 * @param restartWithDependencies whether it is stopped when a process of a child it
 * depends on ends, and started again once they are all {@code RUNNING}; without it, a
 * dependency's restart leaves it alone
 * @param stdio whether its stdin and stdout are pipes to this JVM
 * ({@link Supervisor#stdio(String)}), for a child that talks over them such as an MCP
 * stdio server; only its stderr then goes to {@code log}
 * @param resources the limits its command runs under, the memory its tree may keep, its
 * OOM score
 * @param successExitCodes exits that count as clean besides code 0: {@code on-failure}
 * does not restart after them
 * @param reloadSignal the signal that asks it to reload its configuration
 * ({@link Supervisor#reload}), SIGHUP by default
 * @param restartPreventExitCodes exits after which the child is never restarted, whatever
 * its policy: it ends {@code FAILED}, the exit in its last error (a child that exits 78,
 * {@code EX_CONFIG}, on a bad configuration would otherwise loop until the breaker opens)
 * @param selfReport what it reports of itself: {@code readiness.notify} and
 * {@code liveness.watchdog} over systemd's notify protocol, {@code readiness.log-line}
 * @param probeAddress the loopback address its port is probed on (readiness, liveness):
 * {@value #DEFAULT_PROBE_ADDRESS} by default, or {@code ::1} for a child that listens
 * only there
 * @param socketActivation whether the supervisor holds the child's listening socket and
 * hands it to each of its processes ({@link SocketActivation#DISABLED}: the child binds
 * its port itself)
 * @param restartMode whether a restart stops the old process first (the default) or
 * starts the new one first ({@link RestartMode#ROLLING}, with socket activation)
 * @param startupDelay {@code startup-delay}: the child is ready once its process has run
 * this long, instead of once its port accepts; {@code null} for none. For a child that
 * says nothing of its readiness, such as one on a held socket, which always accepts
 * @throws InvalidChildSpecException naming the setting when a value is unusable; every
 * duration must be positive and at most {@link #MAX_DURATION}
 */
public record ChildSpec(String name, ChildKind kind, List<String> command, Map<String, String> environment,
		@Nullable Path workingDirectory, boolean autostart, @Nullable Integer port, Duration startupTimeout,
		RestartPolicy restart, Backoff backoff, int maxRestarts, Duration restartWindow, Duration stableAfter,
		int stopSignal, Duration stopTimeout, LogSettings log, boolean containDescendants, List<String> dependsOn,
		ProbeSettings readiness, ProbeSettings liveness, boolean critical, boolean restartWithDependencies,
		boolean stdio, ResourceLimits resources, ExitCodes successExitCodes, ExitCodes restartPreventExitCodes,
		int reloadSignal, SelfReport selfReport, String probeAddress, SocketActivation socketActivation,
		RestartMode restartMode, @Nullable Duration startupDelay) {

	/** The address a child's port is probed on unless it names another. */
	public static final String DEFAULT_PROBE_ADDRESS = "127.0.0.1";

	/**
	 * The longest duration any setting accepts. Why: durations become nanosecond
	 * deadlines, and a bound far below what overflows a {@code long} of nanoseconds
	 * (about 292 years) keeps every sum of them exact.
	 */
	public static final Duration MAX_DURATION = Duration.ofDays(365);

	/** The shortest limit a line may be cut at. */
	static final int MIN_LINE_LENGTH = 80;

	/**
	 * The longest limit a line may be cut at. Why a bound: each of a child's pipes may
	 * hold one line this long.
	 */
	static final int MAX_LINE_LENGTH = 1024 * 1024;

	/** The most rotated files a child's log may keep. */
	static final int MAX_LOG_HISTORY = 1000;

	/**
	 * Variables with this prefix are the supervisor's markers; a configured one could
	 * hide a child.
	 */
	static final String RESERVED_ENVIRONMENT_PREFIX = "TETHER_";

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

	public ChildSpec {
		if (name == null || !NAME.matcher(name).matches()) {
			throw new InvalidChildSpecException(String.valueOf(name), "name",
					"must be 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit");
		}
		if (command == null || command.isEmpty() || command.get(0) == null || command.get(0).isBlank()) {
			throw new InvalidChildSpecException(name, "command", "must name an executable");
		}
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(restart, "restart");
		Objects.requireNonNull(backoff, "backoff");
		command = List.copyOf(command);
		ChildSpecChecks.environment(name, environment);
		environment = Map.copyOf(environment);
		if (port != null && (port < 1 || port > 65535)) {
			throw new InvalidChildSpecException(name, "port", "must be between 1 and 65535 (was " + port + ")");
		}
		ChildSpecChecks.bounded(name, "startup-timeout", startupTimeout);
		ChildSpecChecks.bounded(name, "restart-window", restartWindow);
		ChildSpecChecks.bounded(name, "stable-after", stableAfter);
		ChildSpecChecks.bounded(name, "stop-timeout", stopTimeout);
		ChildSpecChecks.bounded(name, "backoff.initial", backoff.initial());
		ChildSpecChecks.bounded(name, "backoff.max", backoff.max());
		if (backoff.max().compareTo(backoff.initial()) < 0) {
			throw new InvalidChildSpecException(name, "backoff.max", "must not be shorter than backoff.initial");
		}
		if (backoff.multiplier() < 1.0) {
			throw new InvalidChildSpecException(name, "backoff.multiplier", "must be at least 1.0");
		}
		if (backoff.jitter() < 0.0 || backoff.jitter() >= 1.0) {
			throw new InvalidChildSpecException(name, "backoff.jitter", "must be at least 0 and less than 1");
		}
		if (maxRestarts < 0) {
			throw new InvalidChildSpecException(name, "max-restarts", "must not be negative");
		}
		ChildSpecChecks.log(name, log);
		if (reloadSignal <= 0) {
			throw new InvalidChildSpecException(name, "reload-signal", "must be a signal");
		}
		ChildSpecChecks.probeAddress(name, probeAddress);
		if (stopSignal <= 0) {
			throw new InvalidChildSpecException(name, "stop-signal", "must be a signal");
		}
		dependsOn = List.copyOf(dependsOn);
		if (dependsOn.contains(name)) {
			throw new InvalidChildSpecException(name, "depends-on", "names the child itself");
		}
		ChildSpecChecks.probe(name, "readiness", readiness, port);
		ChildSpecChecks.probe(name, "liveness", liveness, port);
		ResourceChecks.check(name, resources);
		Objects.requireNonNull(successExitCodes, "successExitCodes");
		Objects.requireNonNull(restartPreventExitCodes, "restartPreventExitCodes");
		Objects.requireNonNull(selfReport, "selfReport").check(name, log);
		Objects.requireNonNull(socketActivation, "socketActivation").check(name, port, stdio);
		ChildSpecChecks.startupDelay(name, startupDelay, startupTimeout, selfReport, readiness);
		ChildSpecChecks.restartMode(name, Objects.requireNonNull(restartMode, "restartMode"), socketActivation,
				selfReport, readiness, stdio, startupDelay != null);
		Duration needed = backoff.minimumTotal(maxRestarts);
		if (maxRestarts > 0 && restartWindow.compareTo(needed) < 0) {
			throw new InvalidChildSpecException(name, "restart-window",
					"(" + restartWindow + ") is shorter than the " + needed + " that " + maxRestarts
							+ " restarts take with this backoff, so the breaker could never open");
		}
	}

	/**
	 * Checks children against each other: every {@code depends-on} names one of them, and
	 * no cycle runs through them.
	 * @throws InvalidChildSpecException naming the child, {@code depends-on}, and the
	 * unknown name or the cycle
	 */
	public static void checkDependencies(Collection<ChildSpec> specs) {
		Dependencies.check(specs);
	}

	/**
	 * Checks a child added beside children already checked: every {@code depends-on}
	 * names one of them. Why that is enough: none of the others can depend on a child
	 * that did not exist, and a spec never names itself, so no cycle runs through the
	 * added one.
	 * @param isChild whether a name is one of the children already checked
	 * @throws InvalidChildSpecException naming the child, {@code depends-on}, and the
	 * unknown name
	 */
	public static void checkDependenciesOfAdded(ChildSpec added, Predicate<String> isChild) {
		Dependencies.checkAdded(added, isChild);
	}

	/**
	 * The setting that names one environment variable in errors,
	 * {@code environment.<KEY>}; a NUL in the key is shown as {@code \0}.
	 */
	public static String environmentSetting(String key) {
		return "environment." + key.replace("\0", "\\0");
	}

	/**
	 * A builder holding every setting of this spec, to change some of them: for
	 * {@link Supervisor#update}, say.
	 */
	public ChildSpecBuilder toBuilder() {
		return new ChildSpecBuilder(this);
	}

	/** A builder with every default of the contract. */
	public static ChildSpecBuilder builder(String name, List<String> command) {
		return new ChildSpecBuilder(name, command);
	}

}
