package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.RestartPolicy;

/**
 * Configuration of Tether's supervisor and of the children it runs.
 */
@ConfigurationProperties("supervisor")
public class SupervisorProperties {

	/**
	 * Whether to supervise the configured children.
	 */
	private boolean enabled = true;

	/**
	 * Id written into every child's environment; it tells this application's children from any other's. Defaults to
	 * spring.application.name, else 'default'.
	 */
	private String installationId;

	/**
	 * Directory of the registry, its lock and the child logs. Defaults to
	 * $XDG_STATE_HOME/tether/<installation-id> (~/.local/state/tether/<installation-id>).
	 */
	private Path stateDirectory;

	/**
	 * Period of the supervision tick (due restarts, readiness, deadlines, and a backstop for exits).
	 */
	private Duration reapInterval = Duration.ofMillis(200);

	/**
	 * Signal a child receives when the JVM dies (TERM, KILL, ... or a number); NONE disables it.
	 */
	private String parentDeathSignal = "TERM";

	private final Reconcile reconcile = new Reconcile();

	/**
	 * Settings every child inherits unless it sets its own (all but 'command').
	 */
	private final Child defaults = new Child();

	/**
	 * The children to supervise, by name.
	 */
	private final Map<String, Child> children = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getInstallationId() {
		return this.installationId;
	}

	public void setInstallationId(String installationId) {
		this.installationId = installationId;
	}

	public Path getStateDirectory() {
		return this.stateDirectory;
	}

	public void setStateDirectory(Path stateDirectory) {
		this.stateDirectory = stateDirectory;
	}

	public Duration getReapInterval() {
		return this.reapInterval;
	}

	public void setReapInterval(Duration reapInterval) {
		this.reapInterval = reapInterval;
	}

	public String getParentDeathSignal() {
		return this.parentDeathSignal;
	}

	public void setParentDeathSignal(String parentDeathSignal) {
		this.parentDeathSignal = parentDeathSignal;
	}

	public Reconcile getReconcile() {
		return this.reconcile;
	}

	public Child getDefaults() {
		return this.defaults;
	}

	public Map<String, Child> getChildren() {
		return this.children;
	}

	/**
	 * What happens at start to what a previous run left behind.
	 */
	public static class Reconcile {

		/**
		 * What to do with a verified child of a previous run: stop it, or adopt it.
		 */
		private OrphanPolicy orphans = OrphanPolicy.STOP;

		public OrphanPolicy getOrphans() {
			return this.orphans;
		}

		public void setOrphans(OrphanPolicy orphans) {
			this.orphans = orphans;
		}

	}

	/**
	 * One child's settings. Unset values come from 'supervisor.defaults', then from Tether's defaults.
	 */
	public static class Child {

		/**
		 * What the child is: 'agent' or 'mcp' (decides the environment variable that carries its name).
		 */
		private ChildKind kind;

		/**
		 * The executable (a path, or a name looked up on PATH), then its arguments.
		 */
		private List<String> command = new ArrayList<>();

		/**
		 * Extra environment variables (the application's environment is inherited). Never shown by any endpoint.
		 */
		private Map<String, String> environment = new LinkedHashMap<>();

		/**
		 * Working directory of the child. Defaults to the application's working directory.
		 */
		private Path workingDirectory;

		/**
		 * Whether the child starts when the application is ready.
		 */
		private Boolean autostart;

		/**
		 * Port the child listens on: it is STARTING until the port accepts connections, and a foreign holder of the
		 * port fails its start.
		 */
		private Integer port;

		/**
		 * How long a child with a port may take to accept connections.
		 */
		private Duration startupTimeout;

		/**
		 * When the child is restarted after it exits: 'always', 'on-failure' or 'never'.
		 */
		private RestartPolicy restart;

		private final Backoff backoff = new Backoff();

		/**
		 * How many restarts 'restart-window' allows before the child is FAILED.
		 */
		private Integer maxRestarts;

		/**
		 * Window of the restart breaker.
		 */
		private Duration restartWindow;

		/**
		 * Uptime after which backoff and breaker are reset.
		 */
		private Duration stableAfter;

		/**
		 * Signal that asks the child to stop (TERM, INT, ... or a number).
		 */
		private String stopSignal;

		/**
		 * How long the child may take to exit after its stop signal before it and its group are killed.
		 */
		private Duration stopTimeout;

		private final Log log = new Log();

		public ChildKind getKind() {
			return this.kind;
		}

		public void setKind(ChildKind kind) {
			this.kind = kind;
		}

		public List<String> getCommand() {
			return this.command;
		}

		public void setCommand(List<String> command) {
			this.command = command;
		}

		public Map<String, String> getEnvironment() {
			return this.environment;
		}

		public void setEnvironment(Map<String, String> environment) {
			this.environment = environment;
		}

		public Path getWorkingDirectory() {
			return this.workingDirectory;
		}

		public void setWorkingDirectory(Path workingDirectory) {
			this.workingDirectory = workingDirectory;
		}

		public Boolean getAutostart() {
			return this.autostart;
		}

		public void setAutostart(Boolean autostart) {
			this.autostart = autostart;
		}

		public Integer getPort() {
			return this.port;
		}

		public void setPort(Integer port) {
			this.port = port;
		}

		public Duration getStartupTimeout() {
			return this.startupTimeout;
		}

		public void setStartupTimeout(Duration startupTimeout) {
			this.startupTimeout = startupTimeout;
		}

		public RestartPolicy getRestart() {
			return this.restart;
		}

		public void setRestart(RestartPolicy restart) {
			this.restart = restart;
		}

		public Backoff getBackoff() {
			return this.backoff;
		}

		public Integer getMaxRestarts() {
			return this.maxRestarts;
		}

		public void setMaxRestarts(Integer maxRestarts) {
			this.maxRestarts = maxRestarts;
		}

		public Duration getRestartWindow() {
			return this.restartWindow;
		}

		public void setRestartWindow(Duration restartWindow) {
			this.restartWindow = restartWindow;
		}

		public Duration getStableAfter() {
			return this.stableAfter;
		}

		public void setStableAfter(Duration stableAfter) {
			this.stableAfter = stableAfter;
		}

		public String getStopSignal() {
			return this.stopSignal;
		}

		public void setStopSignal(String stopSignal) {
			this.stopSignal = stopSignal;
		}

		public Duration getStopTimeout() {
			return this.stopTimeout;
		}

		public void setStopTimeout(Duration stopTimeout) {
			this.stopTimeout = stopTimeout;
		}

		public Log getLog() {
			return this.log;
		}

	}

	/**
	 * Delays between restarts: initial * multiplier^n, at most max, spread by jitter either way.
	 */
	public static class Backoff {

		/**
		 * Delay before the first restart.
		 */
		private Duration initial;

		/**
		 * Longest delay between restarts.
		 */
		private Duration max;

		/**
		 * Factor applied to the delay after each restart.
		 */
		private Double multiplier;

		/**
		 * Random spread of each delay, as a fraction either way (0.2 = +/-20%).
		 */
		private Double jitter;

		public Duration getInitial() {
			return this.initial;
		}

		public void setInitial(Duration initial) {
			this.initial = initial;
		}

		public Duration getMax() {
			return this.max;
		}

		public void setMax(Duration max) {
			this.max = max;
		}

		public Double getMultiplier() {
			return this.multiplier;
		}

		public void setMultiplier(Double multiplier) {
			this.multiplier = multiplier;
		}

		public Double getJitter() {
			return this.jitter;
		}

		public void setJitter(Double jitter) {
			this.jitter = jitter;
		}

	}

	/**
	 * Where a child's output goes.
	 */
	public static class Log {

		/**
		 * File the child's stdout and stderr are appended to. Defaults to <state-directory>/logs/<name>.log.
		 */
		private Path file;

		public Path getFile() {
			return this.file;
		}

		public void setFile(Path file) {
			this.file = file;
		}

	}

}
