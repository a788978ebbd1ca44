package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.event.Level;

import dev.tether.supervisor.output.LogSettings;

/**
 * Builds a {@link ChildSpec}; its initial values are the defaults of every setting.
 */
public final class ChildSpecBuilder {

	private final String name;

	private List<String> command;

	private ChildKind kind = ChildKind.AGENT;

	private Map<String, String> environment = Map.of();

	private @Nullable Path workingDirectory;

	private boolean autostart = true;

	private @Nullable Integer port;

	private Duration startupTimeout = Duration.ofSeconds(60);

	private RestartPolicy restart = RestartPolicy.ON_FAILURE;

	private Backoff backoff = Backoff.DEFAULT;

	private int maxRestarts = 5;

	private Duration restartWindow = Duration.ofSeconds(60);

	private Duration stableAfter = Duration.ofSeconds(10);

	private int stopSignal = 15;

	private int reloadSignal = 1;

	private String probeAddress = ChildSpec.DEFAULT_PROBE_ADDRESS;

	private Duration stopTimeout = Duration.ofSeconds(10);

	private Path logFile;

	private boolean logFileEnabled = true;

	private long logMaxSize = 10L * 1024 * 1024;

	private int logMaxHistory = 7;

	private boolean logToLogger;

	private Level logStderrLevel = Level.WARN;

	private int logMaxLineLength = 16 * 1024;

	private boolean containDescendants = true;

	private List<String> dependsOn = List.of();

	private ProbeSettings readiness = ProbeSettings.READINESS;

	private ProbeSettings liveness = ProbeSettings.LIVENESS;

	private boolean critical = true;

	private boolean restartWithDependencies;

	private boolean stdio;

	private ResourceLimits resources = ResourceLimits.NONE;

	private ExitCodes successExitCodes = ExitCodes.NONE;

	private ExitCodes restartPreventExitCodes = ExitCodes.NONE;

	private SelfReport selfReport = SelfReport.NONE;

	private SocketActivation socketActivation = SocketActivation.DISABLED;

	private RestartMode restartMode = RestartMode.STOP_FIRST;

	private @Nullable Duration startupDelay;

	ChildSpecBuilder(String name, List<String> command) {
		this.name = name;
		this.command = command;
	}

	/** A builder holding every setting of {@code spec}. */
	ChildSpecBuilder(ChildSpec spec) {
		this(spec.name(), spec.command());
		this.kind = spec.kind();
		this.environment = spec.environment();
		this.workingDirectory = spec.workingDirectory();
		this.autostart = spec.autostart();
		this.port = spec.port();
		this.startupTimeout = spec.startupTimeout();
		this.restart = spec.restart();
		this.backoff = spec.backoff();
		this.maxRestarts = spec.maxRestarts();
		this.restartWindow = spec.restartWindow();
		this.stableAfter = spec.stableAfter();
		this.stopSignal = spec.stopSignal();
		this.reloadSignal = spec.reloadSignal();
		this.probeAddress = spec.probeAddress();
		this.stopTimeout = spec.stopTimeout();
		LogSettings log = spec.log();
		this.logFile = log.file();
		this.logFileEnabled = log.fileEnabled();
		this.logMaxSize = log.maxSize();
		this.logMaxHistory = log.maxHistory();
		this.logToLogger = log.logger();
		this.logStderrLevel = log.stderrLevel();
		this.logMaxLineLength = log.maxLineLength();
		this.containDescendants = spec.containDescendants();
		this.dependsOn = spec.dependsOn();
		this.readiness = spec.readiness();
		this.liveness = spec.liveness();
		this.critical = spec.critical();
		this.restartWithDependencies = spec.restartWithDependencies();
		this.stdio = spec.stdio();
		this.resources = spec.resources();
		this.successExitCodes = spec.successExitCodes();
		this.restartPreventExitCodes = spec.restartPreventExitCodes();
		this.selfReport = spec.selfReport();
		this.socketActivation = spec.socketActivation();
		this.restartMode = spec.restartMode();
		this.startupDelay = spec.startupDelay();
	}

	/** The executable, then its arguments. */
	public ChildSpecBuilder command(List<String> command) {
		this.command = command;
		return this;
	}

	public ChildSpecBuilder kind(ChildKind kind) {
		this.kind = kind;
		return this;
	}

	public ChildSpecBuilder environment(Map<String, String> environment) {
		this.environment = environment;
		return this;
	}

	public ChildSpecBuilder workingDirectory(@Nullable Path workingDirectory) {
		this.workingDirectory = workingDirectory;
		return this;
	}

	public ChildSpecBuilder autostart(boolean autostart) {
		this.autostart = autostart;
		return this;
	}

	public ChildSpecBuilder port(@Nullable Integer port) {
		this.port = port;
		return this;
	}

	public ChildSpecBuilder startupTimeout(Duration startupTimeout) {
		this.startupTimeout = startupTimeout;
		return this;
	}

	public ChildSpecBuilder restart(RestartPolicy restart) {
		this.restart = restart;
		return this;
	}

	public ChildSpecBuilder backoff(Backoff backoff) {
		this.backoff = backoff;
		return this;
	}

	public ChildSpecBuilder backoffInitial(Duration initial) {
		this.backoff = this.backoff.withInitial(initial);
		return this;
	}

	public ChildSpecBuilder backoffMax(Duration max) {
		this.backoff = this.backoff.withMax(max);
		return this;
	}

	public ChildSpecBuilder backoffMultiplier(double multiplier) {
		this.backoff = this.backoff.withMultiplier(multiplier);
		return this;
	}

	public ChildSpecBuilder backoffJitter(double jitter) {
		this.backoff = this.backoff.withJitter(jitter);
		return this;
	}

	public ChildSpecBuilder maxRestarts(int maxRestarts) {
		this.maxRestarts = maxRestarts;
		return this;
	}

	public ChildSpecBuilder restartWindow(Duration restartWindow) {
		this.restartWindow = restartWindow;
		return this;
	}

	public ChildSpecBuilder stableAfter(Duration stableAfter) {
		this.stableAfter = stableAfter;
		return this;
	}

	/**
	 * {@code probe-address}: the loopback address the port is probed on,
	 * {@code 127.0.0.1} or {@code ::1}.
	 */
	public ChildSpecBuilder probeAddress(String probeAddress) {
		this.probeAddress = probeAddress;
		return this;
	}

	public ChildSpecBuilder reloadSignal(int reloadSignal) {
		this.reloadSignal = reloadSignal;
		return this;
	}

	public ChildSpecBuilder stopSignal(int stopSignal) {
		this.stopSignal = stopSignal;
		return this;
	}

	public ChildSpecBuilder stopTimeout(Duration stopTimeout) {
		this.stopTimeout = stopTimeout;
		return this;
	}

	public ChildSpecBuilder logFile(Path logFile) {
		this.logFile = logFile;
		return this;
	}

	public ChildSpecBuilder logFileEnabled(boolean logFileEnabled) {
		this.logFileEnabled = logFileEnabled;
		return this;
	}

	public ChildSpecBuilder logMaxSize(long logMaxSize) {
		this.logMaxSize = logMaxSize;
		return this;
	}

	public ChildSpecBuilder logMaxHistory(int logMaxHistory) {
		this.logMaxHistory = logMaxHistory;
		return this;
	}

	public ChildSpecBuilder logToLogger(boolean logToLogger) {
		this.logToLogger = logToLogger;
		return this;
	}

	public ChildSpecBuilder logStderrLevel(Level logStderrLevel) {
		this.logStderrLevel = logStderrLevel;
		return this;
	}

	public ChildSpecBuilder logMaxLineLength(int logMaxLineLength) {
		this.logMaxLineLength = logMaxLineLength;
		return this;
	}

	public ChildSpecBuilder containDescendants(boolean containDescendants) {
		this.containDescendants = containDescendants;
		return this;
	}

	public ChildSpecBuilder dependsOn(List<String> dependsOn) {
		this.dependsOn = dependsOn;
		return this;
	}

	/**
	 * {@code readiness.http-get}: a path on the port, ready once a {@code GET} answers
	 * 2xx or 3xx.
	 */
	public ChildSpecBuilder readinessHttpGet(@Nullable String path) {
		this.readiness = new ProbeSettings(path, false, this.readiness.period(), this.readiness.timeout(), 1);
		return this;
	}

	public ChildSpecBuilder readinessPeriod(Duration period) {
		this.readiness = new ProbeSettings(this.readiness.httpGet(), false, period, this.readiness.timeout(), 1);
		return this;
	}

	public ChildSpecBuilder readinessTimeout(Duration timeout) {
		this.readiness = new ProbeSettings(this.readiness.httpGet(), false, this.readiness.period(), timeout, 1);
		return this;
	}

	/**
	 * {@code liveness.http-get}: a path on the port that must keep answering 2xx or 3xx.
	 */
	public ChildSpecBuilder livenessHttpGet(@Nullable String path) {
		this.liveness = new ProbeSettings(path, this.liveness.tcp(), this.liveness.period(), this.liveness.timeout(),
				this.liveness.failureThreshold());
		return this;
	}

	/** {@code liveness.tcp}: the port must keep accepting connections. */
	public ChildSpecBuilder livenessTcp(boolean tcp) {
		this.liveness = new ProbeSettings(this.liveness.httpGet(), tcp, this.liveness.period(), this.liveness.timeout(),
				this.liveness.failureThreshold());
		return this;
	}

	public ChildSpecBuilder livenessPeriod(Duration period) {
		this.liveness = new ProbeSettings(this.liveness.httpGet(), this.liveness.tcp(), period, this.liveness.timeout(),
				this.liveness.failureThreshold());
		return this;
	}

	public ChildSpecBuilder livenessTimeout(Duration timeout) {
		this.liveness = new ProbeSettings(this.liveness.httpGet(), this.liveness.tcp(), this.liveness.period(), timeout,
				this.liveness.failureThreshold());
		return this;
	}

	public ChildSpecBuilder livenessFailureThreshold(int failureThreshold) {
		this.liveness = new ProbeSettings(this.liveness.httpGet(), this.liveness.tcp(), this.liveness.period(),
				this.liveness.timeout(), failureThreshold);
		return this;
	}

	public ChildSpecBuilder critical(boolean critical) {
		this.critical = critical;
		return this;
	}

	public ChildSpecBuilder restartWithDependencies(boolean restartWithDependencies) {
		this.restartWithDependencies = restartWithDependencies;
		return this;
	}

	public ChildSpecBuilder stdio(boolean stdio) {
		this.stdio = stdio;
		return this;
	}

	public ChildSpecBuilder resources(ResourceLimits resources) {
		this.resources = resources;
		return this;
	}

	public ChildSpecBuilder successExitCodes(ExitCodes successExitCodes) {
		this.successExitCodes = successExitCodes;
		return this;
	}

	public ChildSpecBuilder restartPreventExitCodes(ExitCodes restartPreventExitCodes) {
		this.restartPreventExitCodes = restartPreventExitCodes;
		return this;
	}

	/**
	 * {@code readiness.notify}: the child gets a notify socket and is ready once it sends
	 * {@code READY=1}.
	 */
	public ChildSpecBuilder readinessNotify(boolean notify) {
		this.selfReport = new SelfReport(notify, this.selfReport.watchdog(), this.selfReport.logLine());
		return this;
	}

	/**
	 * {@code liveness.watchdog}: once {@code RUNNING}, the child must send
	 * {@code WATCHDOG=1} at least this often ({@code null}: no watchdog).
	 */
	public ChildSpecBuilder livenessWatchdog(@Nullable Duration watchdog) {
		this.selfReport = new SelfReport(this.selfReport.notifyReady(), watchdog, this.selfReport.logLine());
		return this;
	}

	/**
	 * {@code readiness.log-line}: the child is ready once a line of its stdout or stderr
	 * matches this regular expression ({@code null}: not by its output).
	 */
	public ChildSpecBuilder readinessLogLine(@Nullable String logLine) {
		this.selfReport = new SelfReport(this.selfReport.notifyReady(), this.selfReport.watchdog(), logLine);
		return this;
	}

	/**
	 * {@code socket-activation.*}: the supervisor listens on the child's port and hands
	 * the socket to each of its processes ({@link SocketActivation#DISABLED} by default).
	 */
	public ChildSpecBuilder socketActivation(SocketActivation socketActivation) {
		this.socketActivation = socketActivation;
		return this;
	}

	/**
	 * {@code restart-mode}: {@link RestartMode#STOP_FIRST} by default, or
	 * {@link RestartMode#ROLLING} with socket activation.
	 */
	public ChildSpecBuilder restartMode(RestartMode restartMode) {
		this.restartMode = restartMode;
		return this;
	}

	/**
	 * {@code startup-delay}: the child is ready once its process has run this long,
	 * instead of once its port accepts ({@code null}: no delay).
	 */
	public ChildSpecBuilder startupDelay(@Nullable Duration startupDelay) {
		this.startupDelay = startupDelay;
		return this;
	}

	public ChildSpec build() {
		return new ChildSpec(this.name, this.kind, this.command, this.environment, this.workingDirectory,
				this.autostart, this.port, this.startupTimeout, this.restart, this.backoff, this.maxRestarts,
				this.restartWindow, this.stableAfter, this.stopSignal, this.stopTimeout,
				new LogSettings(this.logFile, this.logFileEnabled, this.logMaxSize, this.logMaxHistory,
						this.logToLogger, this.logStderrLevel, this.logMaxLineLength),
				this.containDescendants, this.dependsOn, this.readiness, this.liveness, this.critical,
				this.restartWithDependencies, this.stdio, this.resources, this.successExitCodes,
				this.restartPreventExitCodes, this.reloadSignal, this.selfReport, this.probeAddress,
				this.socketActivation, this.restartMode, this.startupDelay);
	}

}
