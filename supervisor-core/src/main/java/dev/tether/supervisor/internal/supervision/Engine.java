package dev.tether.supervisor.internal.supervision;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildStdio;
import dev.tether.supervisor.ChildUsage;
import dev.tether.supervisor.DescriptorUse;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.ReconciliationReport;
import dev.tether.supervisor.SpawnFeatures;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.UpdateReport;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.notify.NotifyPoller;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.ports.PortOwnership;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.CapturedOutput;
import dev.tether.supervisor.registry.ChildRegistry;

/**
 * The supervision engine behind {@link dev.tether.supervisor.Supervisor}: it wires the
 * parts (spawner, identity probe, reaper, registry) to the collaborators that act on
 * children, and owns their lock. {@code Supervisor} is its public face and delegates
 * every call here.
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
public final class Engine implements AutoCloseable {

	// The parts: processes, identity, exits, the registry.

	private final Owner owner;

	private final Spawner spawner;

	private final IdentityProbe probe;

	private final ProcessSignaller signaller;

	private final Reaper reaper;

	private final ChildRegistry registry;

	// The engine: the children and what acts on them.

	private final LongSupplier clock;

	private final ChildTable children = new ChildTable();

	private final RegistrySaver saver;

	private final EventOutbox outbox;

	private final ChildLauncher launcher;

	private final OrphanStops orphans;

	private final Reconciliation reconciliation;

	private final StopCoordinator stops;

	private final LaunchDispatcher launches;

	private final RollingRestarts rolling;

	private final Reconfiguration reconfiguration;

	private final ResourceWatch resources;

	private final TickChecks checks;

	private final PortCheck ports;

	private final Reloads reloads;

	private final ExternalFailures failures;

	private final DescriptorBudget descriptors;

	private final CompletableFuture<Void> closed = new CompletableFuture<>();

	private volatile @Nullable ReconciliationReport lastReconciliation;

	public Engine(EngineSettings settings) {
		this.registry = settings.registry();
		this.owner = new Owner(settings.installationId(), this.registry.instanceId());
		this.spawner = new Spawner(settings.parentDeathSignal(), settings.launcherDirectory());
		this.probe = IdentityProbe.forPlatform();
		this.signaller = new ProcessSignaller(this.probe);
		this.reaper = Reaper.shared();

		this.clock = settings.clock();
		this.saver = new RegistrySaver(this.registry, () -> {
			synchronized (this.children) {
				return this.children.rows(this.owner.installationId());
			}
		});
		this.outbox = new EventOutbox(settings.listeners(), this.children);
		// Why Engine.this: the stops are built below, and asked only once children run.
		ChildNotifications notifications = new ChildNotifications(this.children,
				(child, process) -> Engine.this.stops.target(child, process), this.outbox, this.clock);
		this.launcher = new ChildLauncher(this.spawner, this.probe, this.owner, settings.logDirectory(),
				new NotifyPoller(this.probe, this.clock, notifications));
		this.orphans = new OrphanStops(this.owner, this.probe, this.signaller, this.launcher.bootId(), this::specOf,
				() -> {
					synchronized (this.children) {
						return this.children.pids();
					}
				});
		this.reconciliation = new Reconciliation(new Reconciler(this.signaller), this.children, this.owner,
				this.registry, settings.orphanPolicy(), this.orphans, this.clock);
		this.stops = new StopCoordinator(this.children, this.reaper, this.signaller, this.owner, this.orphans,
				this.outbox, this.clock);
		StopTargets targets = this.stops::target;
		this.reloads = new Reloads(this.children, targets, this.clock);
		this.failures = new ExternalFailures(this.children, targets, this.clock);
		this.descriptors = new DescriptorBudget(settings.descriptorReserve(), this.children);
		this.launches = new LaunchDispatcher(this.children, this.launcher, this.orphans, this.saver, this.outbox,
				this.clock, new DependentRestarts(this.children, targets, this.clock), this.descriptors);
		this.reconfiguration = new Reconfiguration(this.children, this.stops, this.launcher, this::newChild);
		this.rolling = new RollingRestarts(this.children, this.stops, this.launches, this.clock);
		this.resources = new ResourceWatch(this.children, targets, this.clock);
		PortOwnership ownership = new PortOwnership(this.probe);
		this.ports = new PortCheck(this.children, ownership);
		this.checks = new TickChecks(this.children, this.probe, targets, this.launches, this.resources, ownership,
				this.outbox, notifications, this.clock);

		ChildSpec.checkDependencies(settings.children());
		synchronized (this.children) {
			settings.children().forEach((spec) -> this.children.add(newChild(spec), false));
		}
	}

	/** As {@link dev.tether.supervisor.Supervisor#installationId}. */
	public String installationId() {
		return this.owner.installationId();
	}

	/** As {@link dev.tether.supervisor.Supervisor#instanceId}. */
	public String instanceId() {
		return this.owner.instanceId();
	}

	/** As {@link dev.tether.supervisor.Supervisor#parentDeathMechanism}. */
	public ParentDeathMechanism parentDeathMechanism() {
		return this.spawner.parentDeathMechanism();
	}

	/** As {@link dev.tether.supervisor.Supervisor#spawnFeatures}. */
	public SpawnFeatures spawnFeatures() {
		return this.spawner.features();
	}

	/** As {@link dev.tether.supervisor.Supervisor#parentDeathWarning}. */
	public Optional<String> parentDeathWarning() {
		return this.spawner.parentDeathWarning();
	}

	/** As {@link dev.tether.supervisor.Supervisor#nativeBackend}. */
	public String nativeBackend() {
		return Posix.get().backend();
	}

	/** As {@link dev.tether.supervisor.Supervisor#identityVerification}. */
	public boolean identityVerification() {
		return this.probe.isAvailable();
	}

	/** As {@link dev.tether.supervisor.Supervisor#lastReconciliation}. */
	public Optional<ReconciliationReport> lastReconciliation() {
		return Optional.ofNullable(this.lastReconciliation);
	}

	/** As {@link dev.tether.supervisor.Supervisor#registryProblem}. */
	public Optional<String> registryProblem() {
		return this.saver.problem();
	}

	/** As {@link dev.tether.supervisor.Supervisor#descriptors}. */
	public DescriptorUse descriptors() {
		return this.descriptors.use();
	}

	/** As {@link dev.tether.supervisor.Supervisor#register}. */
	public void register(ChildSpec spec) {
		synchronized (this.children) {
			// Why the added child alone: checking all of them at each add made n adds
			// cost n squared. Why not a child being removed: once it is gone, the added
			// one would name nothing, and a later add could close a cycle through it.
			ChildSpec.checkDependenciesOfAdded(spec, (name) -> {
				SupervisedChild named = this.children.find(name);
				return named != null && !named.retired();
			});
			this.children.add(newChild(spec), true);
		}
	}

	private SupervisedChild newChild(ChildSpec spec) {
		return new SupervisedChild(spec, this.outbox, this.clock, this.children);
	}

	/** As {@link dev.tether.supervisor.Supervisor#add}. */
	public ChildSnapshot add(ChildSpec spec) {
		register(spec);
		try {
			return spec.autostart() ? start(spec.name(), false) : snapshot(spec.name()).orElseThrow();
		}
		catch (IllegalArgumentException | NoSuchElementException ex) {
			// Why: a remove of the same name ran between the registration and the start,
			// and the remove is the last word.
			throw new IllegalStateException("child '" + spec.name() + "' was removed while it was being added", ex);
		}
	}

	/** As {@link dev.tether.supervisor.Supervisor#remove}. */
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

	/** As {@link dev.tether.supervisor.Supervisor#update}. */
	public UpdateReport update(List<ChildSpec> configured) {
		UpdateReport report = this.reconfiguration.apply(configured);
		this.saver.changed();
		this.launches.launchWanted();
		publish();
		return report;
	}

	/** As {@link dev.tether.supervisor.Supervisor#snapshots}. */
	public List<ChildSnapshot> snapshots() {
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			return this.children.all().stream().map((child) -> child.snapshot(now)).toList();
		}
	}

	/** As {@link dev.tether.supervisor.Supervisor#snapshot}. */
	public Optional<ChildSnapshot> snapshot(String name) {
		synchronized (this.children) {
			return Optional.ofNullable(this.children.find(name)).map((child) -> child.snapshot(this.clock.getAsLong()));
		}
	}

	/** As {@link dev.tether.supervisor.Supervisor#spec}. */
	public Optional<ChildSpec> spec(String name) {
		return Optional.ofNullable(specOf(name));
	}

	/** As {@link dev.tether.supervisor.Supervisor#usage}. */
	public Optional<ChildUsage> usage(String name) {
		return this.resources.usage(name);
	}

	/** As {@link dev.tether.supervisor.Supervisor#checkPort}. */
	public Optional<ProbeResult> checkPort(String name) {
		return this.ports.check(name);
	}

	/** As {@link dev.tether.supervisor.Supervisor#output}. */
	public Optional<CapturedOutput> output(String name) {
		return Optional.ofNullable(specOf(name)).map(this.launcher::output);
	}

	/** As {@link dev.tether.supervisor.Supervisor#stdio}. */
	public Optional<ChildStdio> stdio(String name) {
		return this.launcher.stdio(name);
	}

	/** As {@link dev.tether.supervisor.Supervisor#reconcile}. */
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

	/** As {@link dev.tether.supervisor.Supervisor#startAutostart}. */
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

	/** As {@link dev.tether.supervisor.Supervisor#start}. */
	public ChildSnapshot start(String name) {
		return start(name, true);
	}

	// Why an add does not save: a save per add cost more than its spawn (1,000 adds ran
	// at a third of the spawner's rate); until the next tick saves, its launcher ties the
	// child to the JVM, and a restart finds it by its markers.
	private ChildSnapshot start(String name, boolean save) {
		ChildSnapshot launched = this.launches.launchNow(name);
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

	/** As {@link dev.tether.supervisor.Supervisor#stop}. */
	public StopOutcome stop(String name) {
		synchronized (this.children) {
			this.children.require(name);
		}
		StopOutcome outcome = this.stops.together(List.of(name)).get(name);
		publish();
		return outcome;
	}

	/** As {@link dev.tether.supervisor.Supervisor#reload}. */
	public ChildSnapshot reload(String name) {
		return this.reloads.reload(name);
	}

	/** As {@link dev.tether.supervisor.Supervisor#restartFailed}. */
	public boolean restartFailed(String name, Instant startedAt, String reason) {
		boolean restarting = this.failures.restartFailed(name, startedAt, reason);
		publish();
		return restarting;
	}

	/** As {@link dev.tether.supervisor.Supervisor#restart}. */
	public ChildSnapshot restart(String name) {
		if (this.rolling.restart(name)) {
			publish();
			return snapshot(name).orElseThrow();
		}
		stop(name);
		return start(name);
	}

	/** As {@link dev.tether.supervisor.Supervisor#stopAll}. */
	public Map<String, StopOutcome> stopAll() {
		List<String> names;
		synchronized (this.children) {
			names = this.children.names();
		}
		Map<String, StopOutcome> outcomes = this.stops.inOrder(names);
		publish();
		return outcomes;
	}

	/** As {@link dev.tether.supervisor.Supervisor#tick}. */
	public void tick() {
		this.children.assertNotHeld();
		this.reaper.drain();
		TickChecks.ChildrenAtTick seen = new TickChecks.ChildrenAtTick();
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			for (SupervisedChild child : this.children.all()) {
				child.advanceStop(now);
				child.advancePortReclaim(now);
				child.restartIfDue(now);
				child.checkStable(now);
				child.checkStartupDelay(now);
				seen.add(child);
			}
		}
		this.checks.apply(seen);
		this.descriptors.recount();
		this.launches.retryRefused();
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

	/** As {@link dev.tether.supervisor.Supervisor#close}. */
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
			this.launcher.close();
		}
		finally {
			this.closed.complete(null);
		}
	}

}
