package dev.tether.supervisor;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.tether.supervisor.internal.supervision.Engine;
import dev.tether.supervisor.internal.supervision.EngineSettings;
import dev.tether.supervisor.output.CapturedOutput;

/**
 * Starts, stops, restarts and watches children: the public face of supervision. Build one
 * with {@link #builder()}; {@link #tick()} applies what time makes due, and
 * {@link #close()} stops every child.
 * <p>
 * Every method is safe to call from any thread. Calls that stop a child ({@link #stop},
 * {@link #restart}, {@link #remove}, {@link #update}, {@link #stopAll()},
 * {@link #close()}) block their caller, holding no lock, until the stop ladder is done;
 * the others return at once. Nothing here waits on a child under a lock (the engine
 * behind it, {@code internal.supervision}, states the lock's rules).
 */
public final class Supervisor implements AutoCloseable {

	private final Engine engine;

	Supervisor(SupervisorBuilder builder) {
		this.engine = new Engine(new EngineSettings(builder.installationId, builder.parentDeathSignal,
				builder.launcherDirectory, builder.registry, builder.orphanPolicy, builder.logDirectory, builder.clock,
				builder.listeners, builder.children, builder.descriptorReserve));
	}

	public static SupervisorBuilder builder() {
		return new SupervisorBuilder();
	}

	/** The installation id stamped into every child. */
	public String installationId() {
		return this.engine.installationId();
	}

	/**
	 * The instance id stamped into every child: one per state directory, kept across
	 * runs.
	 */
	public String instanceId() {
		return this.engine.instanceId();
	}

	/** How children are tied to this JVM's life. */
	public ParentDeathMechanism parentDeathMechanism() {
		return this.engine.parentDeathMechanism();
	}

	/**
	 * How children are spawned here: the method, and what this glibc offers for working
	 * directories and descriptors.
	 */
	public SpawnFeatures spawnFeatures() {
		return this.engine.spawnFeatures();
	}

	/**
	 * The native backend in force in this JVM: {@code ffm} (the Foreign Function and
	 * Memory API, JDK 22+), {@code jnr} (JDK 17 to 21), or {@code none} (no libc bound:
	 * children are spawned by {@code ProcessBuilder}).
	 */
	public String nativeBackend() {
		return this.engine.nativeBackend();
	}

	/**
	 * Why children are not tied to this JVM's life although a parent-death signal was
	 * asked for ({@link #parentDeathMechanism()} is {@code NONE}: neither the launcher
	 * nor {@code setpriv} runs here, or this is not Linux), so that they outlive a JVM
	 * killed with SIGKILL; empty when they are tied to it, or when no signal was asked
	 * for.
	 */
	public Optional<String> parentDeathWarning() {
		return this.engine.parentDeathWarning();
	}

	/**
	 * Whether identity can be verified here (else nothing of a previous run is ever
	 * signalled).
	 */
	public boolean identityVerification() {
		return this.engine.identityVerification();
	}

	/** The last reconciliation, if one ran. */
	public Optional<ReconciliationReport> lastReconciliation() {
		return this.engine.lastReconciliation();
	}

	/**
	 * Why the registry could not be saved, while saving fails (a full disk); supervision
	 * carries on meanwhile.
	 */
	public Optional<String> registryProblem() {
		return this.engine.registryProblem();
	}

	/**
	 * Adds a child, {@code STOPPED}.
	 * @throws InvalidChildSpecException when the name is taken, or a {@code depends-on}
	 * names no child
	 * @throws IllegalStateException when the supervisor is closing
	 */
	public void register(ChildSpec spec) {
		this.engine.register(spec);
	}

	/**
	 * Adds a child while the supervisor runs, supervised exactly like one it was built
	 * with: registered, restarted, reconciled after a crash, shown in every snapshot. It
	 * starts at once when its spec says {@code autostart}. Its registry row is saved by
	 * the next {@link #tick()}, with every other add of that interval, as
	 * {@link #startAutostart()} saves once for all its children.
	 * @return the child as it stands once added (and started)
	 * @throws InvalidChildSpecException when the name is taken (by a child, or by one
	 * still being removed), or a {@code depends-on} names no child
	 * @throws IllegalStateException when the supervisor is closing, or when a
	 * {@link #remove} of the same name ran while it was being added (the child is then
	 * not supervised)
	 */
	public ChildSnapshot add(ChildSpec spec) {
		return this.engine.add(spec);
	}

	/**
	 * Stops a child through the stop ladder, as {@link #stop} does, then forgets it: no
	 * snapshot, no registry row, no restart. Blocks the caller (holding no lock)
	 * meanwhile.
	 * @return how its process ended
	 * @throws IllegalArgumentException when no child has that name
	 * @throws IllegalStateException when other children depend on it (remove them first)
	 */
	public StopOutcome remove(String name) {
		return this.engine.remove(name);
	}

	/**
	 * Applies a new configuration, as supervisord's {@code update} does: children it
	 * names that are not supervised are added (and started per {@code autostart});
	 * configured children it no longer names are stopped and removed; children whose
	 * settings changed are stopped and, if they were running, started with the new ones;
	 * unchanged children keep their process. Children added with {@link #add} are left
	 * alone. The configuration is checked whole first, and its new children registered
	 * with the check: an unusable one changes nothing, and a concurrent {@link #add} of a
	 * new child's name fails instead of this update. Concurrent updates run one after the
	 * other. Blocks the caller (holding no lock) while stops run and earlier updates end.
	 * @param configured every configured child, as the new configuration has them
	 * @throws InvalidChildSpecException naming the child and the setting, when nothing
	 * was changed
	 */
	public UpdateReport update(List<ChildSpec> configured) {
		return this.engine.update(configured);
	}

	/** Every child, in registration order. */
	public List<ChildSnapshot> snapshots() {
		return this.engine.snapshots();
	}

	/** One child, if registered. */
	public Optional<ChildSnapshot> snapshot(String name) {
		return this.engine.snapshot(name);
	}

	/** The spec one child runs with now, if registered. */
	public Optional<ChildSpec> spec(String name) {
		return this.engine.spec(name);
	}

	/**
	 * The application's descriptors and the budget this supervisor keeps within them (see
	 * {@link DescriptorUse}): a start that would cut into the reserve is refused, the
	 * child {@code FAILED} with the numbers in its {@code lastError}, and started again
	 * once descriptors free up.
	 */
	public DescriptorUse descriptors() {
		return this.engine.descriptors();
	}

	/**
	 * What one child's tree uses (see {@link ChildUsage}), if registered; sampled now or
	 * within half a second.
	 */
	public Optional<ChildUsage> usage(String name) {
		return this.engine.usage(name);
	}

	/**
	 * Checks now, as readiness and liveness do, whether one child's port is held by the
	 * child's own process tree: every socket listening on it belongs to its command or a
	 * descendant. For a client about to connect to the child, so that it never talks to
	 * another process that took the port. Reads {@code /proc}, without the lock.
	 * @return empty when no such child is registered; else passed when its tree holds the
	 * port, or failed saying why (no port, no process, or the holder's pid, user and
	 * executable)
	 */
	public Optional<ProbeResult> checkPort(String name) {
		return this.engine.checkPort(name);
	}

	/**
	 * The sinks of one child's output (its file, its logger, what it wrote), if
	 * registered; one for its whole life.
	 */
	public Optional<CapturedOutput> output(String name) {
		return this.engine.output(name);
	}

	/**
	 * The stdin and stdout of a {@link ChildSpec#stdio() stdio} child's latest process,
	 * once it was spawned.
	 */
	public Optional<ChildStdio> stdio(String name) {
		return this.engine.stdio(name);
	}

	/**
	 * Verifies what a previous run left behind and stops or adopts it . Run it before the
	 * first start. Starts asked for meanwhile wait until it is over, so that it can never
	 * mistake a child started during it for an orphan.
	 */
	public ReconciliationReport reconcile() {
		return this.engine.reconcile();
	}

	/**
	 * Starts every child marked {@code autostart} that is not running; the registry is
	 * written once for all.
	 */
	public void startAutostart() {
		this.engine.startAutostart();
	}

	/**
	 * Starts a child (an operator start: it also clears {@code FAILED} and the breaker).
	 * A child that is already running is left as it is.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public ChildSnapshot start(String name) {
		return this.engine.start(name);
	}

	/**
	 * Stops a child through the stop ladder: its stop signal (and SIGCONT) to its group,
	 * up to {@code stop-timeout}, then SIGKILL to the group, then the wait for its exit.
	 * Blocks the caller (holding no lock) meanwhile.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public StopOutcome stop(String name) {
		return this.engine.stop(name);
	}

	/**
	 * Asks a running child to reload its configuration: its {@code reload-signal} (SIGHUP
	 * by default) through the verified path, to its process group (under a shepherd,
	 * forwarded to the command's group). The child stays {@code RUNNING}.
	 * @return the child as it stands once signalled
	 * @throws IllegalArgumentException when no child has that name
	 * @throws IllegalStateException when the child is not {@code RUNNING}, or the signal
	 * could not be sent (the process is gone or not verified ours)
	 */
	public ChildSnapshot reload(String name) {
		return this.engine.reload(name);
	}

	/**
	 * Restarts a {@code RUNNING} child whose process something outside the supervisor
	 * found broken (an MCP session whose server broke the protocol), as a failed liveness
	 * probe does: stopped through the stop ladder, its end counted by the restart policy
	 * and the breaker, {@code reason} in its lastError and events.
	 * @param name the child
	 * @param startedAt the start of the process found broken
	 * ({@link ChildSnapshot#startedAt()}): a newer process is left alone
	 * @param reason what was wrong, for lastError and the log
	 * @return whether that process was stopped; {@code false} when the child is not
	 * {@code RUNNING} or runs another process
	 * @throws IllegalArgumentException when no child has that name
	 */
	public boolean restartFailed(String name, Instant startedAt, String reason) {
		return this.engine.restartFailed(name, startedAt, reason);
	}

	/**
	 * Stops, then starts, a child; with {@link RestartMode#ROLLING} and a running
	 * process, starts the new process first and returns at once, the child
	 * {@code STARTING}: the old process serves until the new one is ready, then is
	 * stopped (or goes on serving if the new one fails). A restart asked while a rolling
	 * restart's new process starts does nothing more.
	 */
	public ChildSnapshot restart(String name) {
		return this.engine.restart(name);
	}

	/**
	 * Stops every child, dependents before what they depend on ({@code depends-on});
	 * children of one wave stop at once (so a wave takes about its longest stop timeout,
	 * not their sum).
	 */
	public Map<String, StopOutcome> stopAll() {
		return this.engine.stopAll();
	}

	/**
	 * Applies what is due: restarts whose backoff has passed, readiness of children with
	 * a port, startup timeouts, stop escalations, port reclaims, stable-after resets, due
	 * readiness and liveness probes (sent without waiting for their answers), the end of
	 * adopted processes, stopped shepherds, remnants of exited groups and of killed
	 * shepherds' trees, and the registry. Never blocks on a child.
	 */
	public void tick() {
		this.engine.tick();
	}

	/**
	 * Stops every child and any process that escaped its group, saves the registry (with
	 * no running rows) and releases it. A second caller waits for the first to finish.
	 */
	@Override
	public void close() {
		this.engine.close();
	}

}
