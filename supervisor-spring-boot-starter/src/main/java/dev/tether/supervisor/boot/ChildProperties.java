package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.RestartMode;
import dev.tether.supervisor.RestartPolicy;

/**
 * One child's settings: {@code supervisor.children.<name>.*}, and
 * {@code supervisor.defaults.*}. Unset values come from 'supervisor.defaults', then from
 * Tether's defaults.
 */
public class ChildProperties {

	/**
	 * What the child is: 'agent' or 'mcp' (decides the environment variable that carries
	 * its name).
	 */
	private @Nullable ChildKind kind;

	/**
	 * The executable (a path, or a name looked up on PATH), then its arguments.
	 */
	private List<String> command = new ArrayList<>();

	/**
	 * Extra environment variables (the application's environment is inherited). Never
	 * shown by any endpoint.
	 */
	private Map<String, String> environment = new LinkedHashMap<>();

	/**
	 * Working directory of the child. Defaults to the application's working directory.
	 */
	private @Nullable Path workingDirectory;

	/**
	 * Whether the child starts when the application is ready.
	 */
	private @Nullable Boolean autostart;

	/**
	 * Port the child listens on: it is STARTING until the port accepts connections, and a
	 * foreign holder of the port fails its start.
	 */
	private @Nullable Integer port;

	/**
	 * How long a child with a port may take to accept connections.
	 */
	private @Nullable Duration startupTimeout;

	/**
	 * The child is ready once its process has run this long, instead of once its port
	 * accepts: for a child that says nothing of its own readiness, such as one on a held
	 * socket (socket activation), which always accepts. Shorter than 'startup-timeout';
	 * not with readiness.notify, readiness.log-line or readiness.http-get.
	 */
	private @Nullable Duration startupDelay;

	@NestedConfigurationProperty
	private final ChildSocketActivationProperties socketActivation = new ChildSocketActivationProperties();

	/**
	 * When the child is restarted after it exits: 'always', 'on-failure' or 'never'.
	 */
	private @Nullable RestartPolicy restart;

	/**
	 * In what order a restart replaces a running process: 'stop-first' (the old one is
	 * stopped, then the new one started) or 'rolling' (with socket activation: the new
	 * one starts on the held socket, and the old one is stopped once the new one is
	 * ready).
	 */
	private @Nullable RestartMode restartMode;

	@NestedConfigurationProperty
	private final ChildBackoffProperties backoff = new ChildBackoffProperties();

	/**
	 * How many restarts 'restart-window' allows before the child is FAILED.
	 */
	private @Nullable Integer maxRestarts;

	/**
	 * Window of the restart breaker.
	 */
	private @Nullable Duration restartWindow;

	/**
	 * Uptime after which backoff and breaker are reset.
	 */
	private @Nullable Duration stableAfter;

	/**
	 * Signal that asks the child to stop (TERM, INT, ... or a number).
	 */
	private @Nullable String stopSignal;

	/**
	 * Signal that asks the child to reload its configuration (the endpoint's reload
	 * action): HUP by default, or another name or number.
	 */
	private @Nullable String reloadSignal;

	/**
	 * How long the child may take to exit after its stop signal before it and its group
	 * are killed.
	 */
	private @Nullable Duration stopTimeout;

	/**
	 * Exits that count as clean besides code 0, so that on-failure does not restart after
	 * them: exit codes (0 to 255) and signal names (SIGTERM, TERM) or numbers prefixed by
	 * SIG.
	 */
	private @Nullable List<String> successExitCodes;

	/**
	 * Exits after which the child is never restarted, whatever its restart policy: it
	 * ends FAILED with the exit in its last error. Exit codes (such as 78, EX_CONFIG) and
	 * signal names.
	 */
	private @Nullable List<String> restartPreventExitCodes;

	/**
	 * Whether every descendant of the child ends with it and with the application,
	 * through a shepherd process (Linux with the parent-death launcher; elsewhere only
	 * the child's process group is contained).
	 */
	private @Nullable Boolean containDescendants;

	/**
	 * Children this one starts after (once they are RUNNING) and stops before. Not
	 * inheritable from defaults.
	 */
	private List<String> dependsOn = new ArrayList<>();

	/**
	 * Whether this child is stopped when a process of a child it depends on ends, and
	 * started again once all of them are RUNNING. Without it, a dependency's restart
	 * leaves this child alone.
	 */
	private @Nullable Boolean restartWithDependencies;

	@NestedConfigurationProperty
	private final ChildLogProperties log = new ChildLogProperties();

	@NestedConfigurationProperty
	private final ReadinessProperties readiness = new ReadinessProperties();

	@NestedConfigurationProperty
	private final LivenessProperties liveness = new LivenessProperties();

	/**
	 * Whether this child's FAILED state turns the 'supervisor' health DOWN. A
	 * non-critical child that has FAILED shows DOWN_NON_CRITICAL in its own component
	 * instead.
	 */
	private @Nullable Boolean critical;

	@NestedConfigurationProperty
	private final ChildLimitsProperties limits = new ChildLimitsProperties();

	/**
	 * Resident memory the child's whole tree (its command and every descendant) may keep:
	 * above it for 'max-memory-samples' samples in a row, the child is restarted, and
	 * this counts as a failure. Unset: no limit.
	 */
	private @Nullable DataSize maxMemory;

	/**
	 * How many samples in a row (one a second) must find the tree above 'max-memory'
	 * before it is restarted. Defaults to 2.
	 */
	private @Nullable Integer maxMemorySamples;

	/**
	 * The command's OOM score adjustment (-1000 to 1000): positive makes the kernel's OOM
	 * killer take it before the application. Below the application's own needs
	 * CAP_SYS_RESOURCE. Unset: inherited.
	 */
	private @Nullable Integer oomScoreAdjust;

	public @Nullable ChildKind getKind() {
		return this.kind;
	}

	public void setKind(@Nullable ChildKind kind) {
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

	public @Nullable Path getWorkingDirectory() {
		return this.workingDirectory;
	}

	public void setWorkingDirectory(@Nullable Path workingDirectory) {
		this.workingDirectory = workingDirectory;
	}

	public @Nullable Boolean getAutostart() {
		return this.autostart;
	}

	public void setAutostart(@Nullable Boolean autostart) {
		this.autostart = autostart;
	}

	public @Nullable Integer getPort() {
		return this.port;
	}

	public void setPort(@Nullable Integer port) {
		this.port = port;
	}

	public @Nullable Duration getStartupTimeout() {
		return this.startupTimeout;
	}

	public void setStartupTimeout(@Nullable Duration startupTimeout) {
		this.startupTimeout = startupTimeout;
	}

	public @Nullable Duration getStartupDelay() {
		return this.startupDelay;
	}

	public void setStartupDelay(@Nullable Duration startupDelay) {
		this.startupDelay = startupDelay;
	}

	public ChildSocketActivationProperties getSocketActivation() {
		return this.socketActivation;
	}

	public @Nullable RestartPolicy getRestart() {
		return this.restart;
	}

	public void setRestart(@Nullable RestartPolicy restart) {
		this.restart = restart;
	}

	public @Nullable RestartMode getRestartMode() {
		return this.restartMode;
	}

	public void setRestartMode(@Nullable RestartMode restartMode) {
		this.restartMode = restartMode;
	}

	public ChildBackoffProperties getBackoff() {
		return this.backoff;
	}

	public @Nullable Integer getMaxRestarts() {
		return this.maxRestarts;
	}

	public void setMaxRestarts(@Nullable Integer maxRestarts) {
		this.maxRestarts = maxRestarts;
	}

	public @Nullable Duration getRestartWindow() {
		return this.restartWindow;
	}

	public void setRestartWindow(@Nullable Duration restartWindow) {
		this.restartWindow = restartWindow;
	}

	public @Nullable Duration getStableAfter() {
		return this.stableAfter;
	}

	public void setStableAfter(@Nullable Duration stableAfter) {
		this.stableAfter = stableAfter;
	}

	public @Nullable String getStopSignal() {
		return this.stopSignal;
	}

	public void setStopSignal(@Nullable String stopSignal) {
		this.stopSignal = stopSignal;
	}

	public @Nullable Duration getStopTimeout() {
		return this.stopTimeout;
	}

	public void setStopTimeout(@Nullable Duration stopTimeout) {
		this.stopTimeout = stopTimeout;
	}

	public @Nullable String getReloadSignal() {
		return this.reloadSignal;
	}

	public void setReloadSignal(@Nullable String reloadSignal) {
		this.reloadSignal = reloadSignal;
	}

	public @Nullable List<String> getSuccessExitCodes() {
		return this.successExitCodes;
	}

	public void setSuccessExitCodes(@Nullable List<String> successExitCodes) {
		this.successExitCodes = successExitCodes;
	}

	public @Nullable List<String> getRestartPreventExitCodes() {
		return this.restartPreventExitCodes;
	}

	public void setRestartPreventExitCodes(@Nullable List<String> restartPreventExitCodes) {
		this.restartPreventExitCodes = restartPreventExitCodes;
	}

	public @Nullable Boolean getContainDescendants() {
		return this.containDescendants;
	}

	public void setContainDescendants(@Nullable Boolean containDescendants) {
		this.containDescendants = containDescendants;
	}

	public List<String> getDependsOn() {
		return this.dependsOn;
	}

	public void setDependsOn(List<String> dependsOn) {
		this.dependsOn = dependsOn;
	}

	public @Nullable Boolean getRestartWithDependencies() {
		return this.restartWithDependencies;
	}

	public void setRestartWithDependencies(@Nullable Boolean restartWithDependencies) {
		this.restartWithDependencies = restartWithDependencies;
	}

	public ChildLogProperties getLog() {
		return this.log;
	}

	public ReadinessProperties getReadiness() {
		return this.readiness;
	}

	public LivenessProperties getLiveness() {
		return this.liveness;
	}

	public @Nullable Boolean getCritical() {
		return this.critical;
	}

	public void setCritical(@Nullable Boolean critical) {
		this.critical = critical;
	}

	public ChildLimitsProperties getLimits() {
		return this.limits;
	}

	public @Nullable DataSize getMaxMemory() {
		return this.maxMemory;
	}

	public void setMaxMemory(@Nullable DataSize maxMemory) {
		this.maxMemory = maxMemory;
	}

	public @Nullable Integer getMaxMemorySamples() {
		return this.maxMemorySamples;
	}

	public void setMaxMemorySamples(@Nullable Integer maxMemorySamples) {
		this.maxMemorySamples = maxMemorySamples;
	}

	public @Nullable Integer getOomScoreAdjust() {
		return this.oomScoreAdjust;
	}

	public void setOomScoreAdjust(@Nullable Integer oomScoreAdjust) {
		this.oomScoreAdjust = oomScoreAdjust;
	}

	/**
	 * Loopback address the child's port is probed on (readiness, liveness): 127.0.0.1, or
	 * ::1 for a child that listens only there. Only a loopback IP address is accepted.
	 */
	private @Nullable String probeAddress;

	public @Nullable String getProbeAddress() {
		return this.probeAddress;
	}

	public void setProbeAddress(@Nullable String probeAddress) {
		this.probeAddress = probeAddress;
	}

}
