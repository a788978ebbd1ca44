package dev.tether.supervisor;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.ports.PortOwnership;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.CapturedOutput;
import dev.tether.supervisor.registry.ChildRegistry;

/**
 * Starts, stops, restarts and watches children: the public face of supervision and the
 * owner of its lock.
 * <p>
 * Data flows one way: a spec becomes a process ({@link ChildLauncher}), the reaper
 * delivers its exit, the child's state machine ({@link SupervisedChild}) decides what
 * follows, and the registry records it ({@link RegistrySaver}). {@link #tick()} applies
 * what time makes due: restarts, readiness, startup timeouts, stop escalations, port
 * reclaims, stable-after resets, the end of adopted processes.
 * <h2>The lock</h2> One lock guards every child: the monitor of its {@link ChildTable}.
 * Why one: transitions are short and never wait on a process (stops are state, advanced
 * by the tick), so one monitor keeps every snapshot consistent without ordering rules
 * between children.
 * <p>
 * Under it, briefly: a child's transitions (each of {@link SupervisedChild}'s asserts the
 * lock); the hand-off of a spawn to the spawner thread, so that an exit, applied under
 * the lock, always finds its pid known (nothing on the spawn path can block: log files
 * are opened non-blocking); reads of {@code /proc/<pid>} of a process being started,
 * stopped or shown (its start time, a shepherd's command, whether it has ended); and
 * signals through the verified path, which reads the target's {@code /proc} entries
 * first. Each is a bounded system call; none waits for a process to do anything.
 * <p>
 * Never under it: waiting for a process (an exit, the end of a stop, a port that
 * accepts), inspecting a port (every process's descriptors), a reconciliation's scan, the
 * sweep of exited groups, writing the registry (the saver takes the rows under this lock
 * from inside its own lock, never the reverse), listeners (events are dispatched after
 * the lock is let go) and waiting for a shepherd's command.
 * <p>
 * The claims are asserted where assertions are on ({@code -ea}, as in the tests): every
 * transition checks that the lock is held, and every wait, registry write and dispatch to
 * listeners that it is not.
 */
public final class Supervisor implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Supervisor.class);

	private final Owner owner;

	private final Spawner spawner;

	private final IdentityProbe probe;

	private final ProcessSignaller signaller;

	private final Reaper reaper;

	private final ChildRegistry registry;

	private final RegistrySaver saver;

	private final ChildLauncher launcher;

	private final EventOutbox outbox;

	private final OrphanStops orphans;

	private final Reconciliation reconciliation;

	private final Launches launches;

	private final Stops stops;

	private final Reconfiguration reconfiguration;

	private final TickChecks checks;

	private final ResourceWatch resources;

	private final PortOwnership ownership;

	private final LongSupplier clock;

	private final ChildTable children = new ChildTable();

	private final CompletableFuture<Void> closed = new CompletableFuture<>();

	private volatile @Nullable ReconciliationReport lastReconciliation;

	Supervisor(SupervisorBuilder builder) {
		this.registry = Objects.requireNonNull(builder.registry, "registry");
		this.owner = new Owner(Objects.requireNonNull(builder.installationId, "installationId"),
				this.registry.instanceId());
		this.spawner = new Spawner(builder.parentDeathSignal,
				Objects.requireNonNull(builder.launcherDirectory, "launcherDirectory"));
		this.probe = IdentityProbe.forPlatform();
		this.signaller = new ProcessSignaller(this.probe);
		this.reaper = Reaper.shared();
		this.saver = new RegistrySaver(this.registry, () -> {
			synchronized (this.children) {
				return this.children.rows(this.owner.installationId());
			}
		});
		this.launcher = new ChildLauncher(this.spawner, this.probe, this.owner,
				Objects.requireNonNull(builder.logDirectory, "logDirectory"));
		this.outbox = new EventOutbox(builder.listeners, this.children);
		this.orphans = new OrphanStops(this.owner, this.probe, this.signaller, this.launcher.bootId(), this::specOf,
				() -> {
					synchronized (this.children) {
						return this.children.pids();
					}
				});
		this.clock = builder.clock;
		this.reconciliation = new Reconciliation(new Reconciler(this.signaller), this.children, this.owner,
				this.registry, builder.orphanPolicy, this.orphans, this.clock);
		this.stops = new Stops(this.children, this.reaper, this.signaller, this.owner, this.orphans, this.outbox,
				this.clock);
		this.reconfiguration = new Reconfiguration(this.children, this.stops, this.launcher, this::newChild);
		this.launches = new Launches(this.children, this.launcher, this.orphans, this.saver, this.outbox, this.clock,
				new DependentRestarts(this.children, this.stops::target, this.clock));
		this.resources = new ResourceWatch(this.children, this.stops::target, this.clock);
		this.ownership = new PortOwnership(this.probe);
		this.checks = new TickChecks(this.children, this.probe, this.stops::target, this.launches, this.resources,
				this.ownership, this.clock);
		ChildSpec.checkDependencies(builder.children);
		synchronized (this.children) {
			builder.children.forEach((spec) -> this.children.add(newChild(spec), false));
		}
	}

	public static SupervisorBuilder builder() {
		return new SupervisorBuilder();
	}

	/** The installation id stamped into every child. */
	public String installationId() {
		return this.owner.installationId();
	}

	/**
	 * The instance id stamped into every child: one per state directory, kept across
	 * runs.
	 */
	public String instanceId() {
		return this.owner.instanceId();
	}

	/** How children are tied to this JVM's life. */
	public ParentDeathMechanism parentDeathMechanism() {
		return this.spawner.parentDeathMechanism();
	}

	/**
	 * How children are spawned here: the method, and what this glibc offers for working
	 * directories and descriptors.
	 */
	public SpawnFeatures spawnFeatures() {
		return this.spawner.features();
	}

	/**
	 * The native backend in force in this JVM: {@code ffm} (the Foreign Function and
	 * Memory API, JDK 22+), {@code jnr} (JDK 17 to 21), or {@code none} (no libc bound:
	 * children are spawned by {@code ProcessBuilder}).
	 */
	public String nativeBackend() {
		return Posix.get().backend();
	}

	/**
	 * Whether identity can be verified here (else nothing of a previous run is ever
	 * signalled).
	 */
	public boolean identityVerification() {
		return this.probe.isAvailable();
	}

	/** The last reconciliation, if one ran. */
	public Optional<ReconciliationReport> lastReconciliation() {
		return Optional.ofNullable(this.lastReconciliation);
	}

	/**
	 * Why the registry could not be saved, while saving fails (a full disk); supervision
	 * carries on meanwhile.
	 */
	public Optional<String> registryProblem() {
		return this.saver.problem();
	}

	/**
	 * Adds a child, {@code STOPPED}.
	 * @throws InvalidChildSpecException when the name is taken, or a {@code depends-on}
	 * names no child
	 * @throws IllegalStateException when the supervisor is closing
	 */
	public void register(ChildSpec spec) {
		synchronized (this.children) {
			ChildSpec.checkDependencies(this.children.specsWith(spec));
			this.children.add(newChild(spec), true);
		}
	}

	private SupervisedChild newChild(ChildSpec spec) {
		return new SupervisedChild(spec, this.outbox, this.clock, this.children);
	}

	/**
	 * Adds a child while the supervisor runs, supervised exactly like one it was built
	 * with: registered, restarted, reconciled after a crash, shown in every snapshot. It
	 * starts at once when its spec says {@code autostart}. Its registry row is saved by
	 * the next {@link #tick()}, with every other add of that interval, as
	 * {@link #startAutostart()} saves once for all its children.
	 * @return the child as it stands once added (and started)
	 * @throws InvalidChildSpecException when the name is taken, or a {@code depends-on}
	 * names no child
	 * @throws IllegalStateException when the supervisor is closing
	 */
	public ChildSnapshot add(ChildSpec spec) {
		register(spec);
		return spec.autostart() ? start(spec.name(), false) : snapshot(spec.name()).orElseThrow();
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
		SupervisedChild child;
		synchronized (this.children) {
			child = this.children.require(name);
			List<String> dependents = this.children.dependents(name);
			if (!dependents.isEmpty()) {
				throw new IllegalStateException(
						"child '" + name + "' is not removed: " + dependents + " depend on it; remove them first");
			}
			child.retire();
		}
		StopOutcome outcome = this.stops.together(List.of(name)).get(name);
		synchronized (this.children) {
			this.children.remove(child);
		}
		this.launcher.forget(name);
		this.saver.changed();
		publish();
		return outcome;
	}

	/**
	 * Applies a new configuration, as supervisord's {@code update} does: children it
	 * names that are not supervised are added (and started per {@code autostart});
	 * configured children it no longer names are stopped and removed; children whose
	 * settings changed are stopped and, if they were running, started with the new ones;
	 * unchanged children keep their process. Children added with {@link #add} are left
	 * alone. The configuration is checked whole first: an unusable one changes nothing.
	 * Blocks the caller (holding no lock) while stops run.
	 * @param configured every configured child, as the new configuration has them
	 * @throws InvalidChildSpecException naming the child and the setting, when nothing
	 * was changed
	 */
	public UpdateReport update(List<ChildSpec> configured) {
		UpdateReport report = this.reconfiguration.apply(configured);
		this.saver.changed();
		this.launches.launchWanted();
		publish();
		return report;
	}

	/** Every child, in registration order. */
	public List<ChildSnapshot> snapshots() {
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			return this.children.all().stream().map((child) -> child.snapshot(now)).toList();
		}
	}

	/** One child, if registered. */
	public Optional<ChildSnapshot> snapshot(String name) {
		synchronized (this.children) {
			return Optional.ofNullable(this.children.find(name)).map((child) -> child.snapshot(this.clock.getAsLong()));
		}
	}

	/**
	 * What one child's tree uses (see {@link ChildUsage}), if registered; sampled now or
	 * within half a second.
	 */
	public Optional<ChildUsage> usage(String name) {
		return this.resources.usage(name);
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
		Integer port;
		ChildProcess process;
		synchronized (this.children) {
			SupervisedChild child = this.children.find(name);
			if (child == null) {
				return Optional.empty();
			}
			port = child.spec().port();
			process = child.process();
		}
		String refusal;
		if (port == null) {
			refusal = "child '" + name + "' has no port";
		}
		else if (process == null) {
			refusal = "child '" + name + "' has no process";
		}
		else {
			refusal = this.ownership.checks().notHeld(port, process, process.pid()).orElse(null);
		}
		return Optional.of((refusal != null) ? new ProbeResult(false, refusal, Instant.now(), 1)
				: new ProbeResult(true, "port " + port + " is held by the child's own process tree", Instant.now(), 0));
	}

	/**
	 * The sinks of one child's output (its file, its logger, what it wrote), if
	 * registered; one for its whole life.
	 */
	public Optional<CapturedOutput> output(String name) {
		return Optional.ofNullable(specOf(name)).map(this.launcher::output);
	}

	/**
	 * The stdin and stdout of a {@link ChildSpec#stdio() stdio} child's latest process,
	 * once it was spawned.
	 */
	public Optional<ChildStdio> stdio(String name) {
		return this.launcher.stdio(name);
	}

	/**
	 * Verifies what a previous run left behind and stops or adopts it (see
	 * {@link Reconciler}). Run it before the first start. Starts asked for meanwhile wait
	 * until it is over, so that it can never mistake a child started during it for an
	 * orphan.
	 */
	public ReconciliationReport reconcile() {
		try {
			ReconciliationReport report = this.reconciliation.run();
			this.lastReconciliation = report;
			return report;
		}
		finally {
			this.saver.changed();
			this.launches.launchWanted();
			publish();
		}
	}

	/**
	 * Starts every child marked {@code autostart} that is not running; the registry is
	 * written once for all.
	 */
	public void startAutostart() {
		synchronized (this.children) {
			this.children.all()
				.stream()
				.filter((child) -> child.spec().autostart())
				.forEach(SupervisedChild::requestStart);
		}
		this.launches.launchWanted();
		publish();
	}

	/**
	 * Starts a child (an operator start: it also clears {@code FAILED} and the breaker).
	 * A child that is already running is left as it is.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public ChildSnapshot start(String name) {
		return start(name, true);
	}

	// Why an add does not save: a save per add cost more than its spawn (1,000 adds ran
	// at a third of the spawner's
	// rate); until the next tick saves, its launcher ties the child to the JVM, and a
	// restart finds it by its markers.
	private ChildSnapshot start(String name, boolean save) {
		synchronized (this.children) {
			this.children.require(name).requestStart();
		}
		ChildSnapshot launched = this.launches.launchWanted().get(name);
		if (save) {
			publish();
		}
		else {
			this.outbox.dispatch();
		}
		if (launched != null && launched.shepherdPid() != null && launched.pid() == null) {
			// Why here, holding no lock: a shepherd forks its command within a moment of
			// its own start.
			Shepherd.awaitCommand(launched.shepherdPid());
			launched = snapshot(name).orElseThrow();
		}
		return (launched != null) ? launched : snapshot(name).orElseThrow();
	}

	/**
	 * Stops a child through the stop ladder: its stop signal (and SIGCONT) to its group,
	 * up to {@code stop-timeout}, then SIGKILL to the group, then the wait for its exit.
	 * Blocks the caller (holding no lock) meanwhile.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public StopOutcome stop(String name) {
		synchronized (this.children) {
			this.children.require(name);
		}
		StopOutcome outcome = this.stops.together(List.of(name)).get(name);
		publish();
		return outcome;
	}

	/** Stops, then starts, a child. */
	public ChildSnapshot restart(String name) {
		stop(name);
		return start(name);
	}

	/**
	 * Stops every child, dependents before what they depend on ({@code depends-on});
	 * children of one wave stop at once (so a wave takes about its longest stop timeout,
	 * not their sum).
	 */
	public Map<String, StopOutcome> stopAll() {
		List<String> names;
		synchronized (this.children) {
			names = this.children.names();
		}
		Map<String, StopOutcome> outcomes = this.stops.inOrder(names);
		publish();
		return outcomes;
	}

	/**
	 * Applies what is due: restarts whose backoff has passed, readiness of children with
	 * a port, startup timeouts, stop escalations, port reclaims, stable-after resets, due
	 * readiness and liveness probes (sent without waiting for their answers), the end of
	 * adopted processes, stopped shepherds, remnants of exited groups and of killed
	 * shepherds' trees, and the registry. Never blocks on a child.
	 */
	public void tick() {
		this.children.assertNotHeld();
		this.reaper.drain();
		TickChecks.Seen seen = new TickChecks.Seen();
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			for (SupervisedChild child : this.children.all()) {
				child.advanceStop(now);
				child.advancePortReclaim(now);
				child.restartIfDue(now);
				child.checkStable(now);
				seen.add(child);
			}
		}
		this.checks.apply(seen);
		this.launches.launchWanted();
		this.orphans.sweep();
		publish();
	}

	/**
	 * Hands the events made meanwhile to the listeners, then saves the registry if
	 * anything changed.
	 */
	private void publish() {
		this.children.assertNotHeld();
		this.outbox.dispatch();
		this.saver.saveIfChanged();
	}

	private @Nullable ChildSpec specOf(String name) {
		synchronized (this.children) {
			SupervisedChild child = this.children.find(name);
			return (child != null) ? child.spec() : null;
		}
	}

	/**
	 * Stops every child and any process that escaped its group, saves the registry (with
	 * no running rows) and releases it. A second caller waits for the first to finish.
	 */
	@Override
	public void close() {
		boolean first;
		synchronized (this.children) {
			first = this.children.close();
		}
		if (!first) {
			this.closed.join();
			return;
		}
		try {
			stopAll();
			this.resources.close();
			this.orphans.stopStrays();
			this.saver.saveIfChanged();
			this.registry.close();
			this.spawner.close();
			this.checks.close();
		}
		finally {
			this.closed.complete(null);
		}
	}

}
