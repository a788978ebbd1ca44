package dev.tether.supervisor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.ports.PortGuard;
import dev.tether.supervisor.internal.ports.PortGuard.PortClaim;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.output.CapturedOutput;
import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * Starts, stops, restarts and watches children: the public face of supervision and the owner of its lock.
 * <p>
 * Data flows one way: a spec becomes a process ({@link ChildLauncher}), the reaper delivers its exit, the child's
 * state machine ({@link SupervisedChild}) decides what follows, and the registry records it ({@link RegistrySaver}).
 * {@link #tick()} applies what time makes due: restarts, readiness, startup timeouts, stop escalations, port
 * reclaims, stable-after resets, the end of adopted processes.
 * <p>
 * Why one lock for every child: transitions are short and never wait on a process (stops are state, advanced by
 * the tick), so one monitor keeps every snapshot consistent without ordering rules between children; {@code /proc}
 * reads, port checks and listeners run outside it.
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

	private final Reconciler reconciler;

	private final OrphanPolicy orphanPolicy;

	private final ChildLauncher launcher;

	private final EventOutbox outbox;

	private final OrphanStops orphans;

	private final ShepherdWatch shepherds;

	private final LongSupplier clock;

	private final Object lock = new Object();

	private final Map<String, SupervisedChild> children = new LinkedHashMap<>();

	private final CompletableFuture<Void> closed = new CompletableFuture<>();

	private volatile @Nullable ReconciliationReport lastReconciliation;

	private boolean closing;

	private int reconciling;

	Supervisor(SupervisorBuilder builder) {
		this.registry = Objects.requireNonNull(builder.registry, "registry");
		this.owner = new Owner(Objects.requireNonNull(builder.installationId, "installationId"),
				this.registry.instanceId());
		this.spawner = new Spawner(builder.parentDeathSignal,
				Objects.requireNonNull(builder.launcherDirectory, "launcherDirectory"));
		this.probe = IdentityProbe.forPlatform();
		this.signaller = new ProcessSignaller(this.probe);
		this.reaper = Reaper.shared();
		this.saver = new RegistrySaver(this.registry);
		this.reconciler = new Reconciler(this.signaller);
		this.orphanPolicy = builder.orphanPolicy;
		this.launcher = new ChildLauncher(this.spawner, this.probe, this.owner,
				Objects.requireNonNull(builder.logDirectory, "logDirectory"));
		this.outbox = new EventOutbox(builder.listeners);
		this.orphans = new OrphanStops(this.owner, this.probe, this.signaller, this.launcher.bootId(),
				this::specOf, this::childPids);
		this.shepherds = new ShepherdWatch(this.probe, this.lock, this::stopTarget);
		this.clock = builder.clock;
		builder.children.forEach(this::register);
	}

	public static SupervisorBuilder builder() {
		return new SupervisorBuilder();
	}

	/** The installation id stamped into every child. */
	public String installationId() {
		return this.owner.installationId();
	}

	/** The instance id stamped into every child: one per state directory, kept across runs. */
	public String instanceId() {
		return this.owner.instanceId();
	}

	/** How children are tied to this JVM's life. */
	public ParentDeathMechanism parentDeathMechanism() {
		return this.spawner.parentDeathMechanism();
	}

	/** How children are spawned here: the method, and what this glibc offers for working directories and descriptors. */
	public SpawnFeatures spawnFeatures() {
		return this.spawner.features();
	}

	/** Whether identity can be verified here (else nothing of a previous run is ever signalled). */
	public boolean identityVerification() {
		return this.probe.isAvailable();
	}

	/** The last reconciliation, if one ran. */
	public Optional<ReconciliationReport> lastReconciliation() {
		return Optional.ofNullable(this.lastReconciliation);
	}

	/** Why the registry could not be saved, while saving fails (a full disk); supervision carries on meanwhile. */
	public Optional<String> registryProblem() {
		return this.saver.problem();
	}

	/**
	 * Adds a child, {@code STOPPED}.
	 * @throws InvalidChildSpecException when the name is taken
	 */
	public void register(ChildSpec spec) {
		synchronized (this.lock) {
			if (this.children.containsKey(spec.name())) {
				throw new InvalidChildSpecException(spec.name(), "name", "is already registered");
			}
			this.children.put(spec.name(), new SupervisedChild(spec, this.outbox, this.clock));
		}
	}

	/** Every child, in registration order. */
	public List<ChildSnapshot> snapshots() {
		synchronized (this.lock) {
			long now = this.clock.getAsLong();
			return this.children.values().stream().map((child) -> child.snapshot(now)).toList();
		}
	}

	/** One child, if registered. */
	public Optional<ChildSnapshot> snapshot(String name) {
		synchronized (this.lock) {
			return Optional.ofNullable(this.children.get(name)).map((child) -> child.snapshot(this.clock.getAsLong()));
		}
	}

	/**
	 * The sinks of one child's output (its file, its logger, what it wrote), if registered. The same object over the
	 * child's whole life.
	 */
	public Optional<CapturedOutput> output(String name) {
		return Optional.ofNullable(specOf(name)).map(this.launcher::output);
	}

	/**
	 * Verifies what a previous run left behind and stops or adopts it (see {@link Reconciler}). Run it before the
	 * first start. Starts asked for meanwhile wait until it is over, so that it can never mistake a child started
	 * during it for an orphan.
	 */
	public ReconciliationReport reconcile() {
		Set<Long> ownPids;
		synchronized (this.lock) {
			this.reconciling++;
			ownPids = childPids();
		}
		try {
			Reconciler.Result result = this.reconciler.reconcile(this.owner, this.registry.load(), this.orphanPolicy,
					(name) -> {
						synchronized (this.lock) {
							SupervisedChild child = this.children.get(name);
							return child != null && child.process() == null;
						}
					}, this.orphans::stopRequest, ownPids);
			synchronized (this.lock) {
				for (Reconciler.Adoption adoption : result.adoptions()) {
					this.children.get(adoption.identity().name()).adopt(adoption, this.clock.getAsLong());
				}
			}
			this.lastReconciliation = result.report();
			return result.report();
		}
		finally {
			synchronized (this.lock) {
				this.reconciling--;
			}
			this.saver.changed();
			launchWanted();
			this.outbox.dispatch();
			saveRegistry();
		}
	}

	/** Starts every child marked {@code autostart} that is not running; the registry is written once for all. */
	public void startAutostart() {
		synchronized (this.lock) {
			this.children.values().stream().filter((child) -> child.spec().autostart())
				.forEach(SupervisedChild::requestStart);
		}
		launchWanted();
		this.outbox.dispatch();
		saveRegistry();
	}

	/**
	 * Starts a child (an operator start: it also clears {@code FAILED} and the breaker). A child that is already
	 * running is left as it is.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public ChildSnapshot start(String name) {
		synchronized (this.lock) {
			child(name).requestStart();
		}
		ChildSnapshot launched = launchWanted().get(name);
		this.outbox.dispatch();
		saveRegistry();
		if (launched != null && launched.shepherdPid() != null && launched.pid() == null) {
			// Why here, holding no lock: a shepherd forks its command within a moment of its own start.
			Shepherd.awaitCommand(launched.shepherdPid());
			launched = snapshot(name).orElseThrow();
		}
		return (launched != null) ? launched : snapshot(name).orElseThrow();
	}

	/**
	 * Stops a child through the stop ladder: its stop signal (and SIGCONT) to its group, up to {@code stop-timeout},
	 * then SIGKILL to the group, then the wait for its exit. Blocks the caller (holding no lock) meanwhile.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public StopOutcome stop(String name) {
		synchronized (this.lock) {
			child(name);
		}
		return stopAll(List.of(name)).get(name);
	}

	/** Stops, then starts, a child. */
	public ChildSnapshot restart(String name) {
		stop(name);
		return start(name);
	}

	/** Stops every child at once (so the whole takes about the longest stop timeout, not their sum). */
	public Map<String, StopOutcome> stopAll() {
		List<String> names;
		synchronized (this.lock) {
			names = List.copyOf(this.children.keySet());
		}
		return stopAll(names);
	}

	private Map<String, StopOutcome> stopAll(List<String> names) {
		Map<String, CompletableFuture<StopOutcome>> pending = new LinkedHashMap<>();
		synchronized (this.lock) {
			long now = this.clock.getAsLong();
			for (String name : names) {
				SupervisedChild child = this.children.get(name);
				ChildProcess process = child.process();
				pending.put(name, child.beginStop((process != null) ? stopTarget(child, process) : null, now));
			}
		}
		this.outbox.dispatch();
		Map<String, StopOutcome> outcomes = new LinkedHashMap<>();
		// Why advance while waiting: the reaped exit normally completes a stop; advancing covers escalation deadlines
		// and adopted processes without depending on anyone calling tick().
		pending.forEach((name, outcome) -> outcomes.put(name, StopLadder.await(outcome, () -> {
			this.reaper.drain();
			advanceStops();
		})));
		this.orphans.sweep();
		this.outbox.dispatch();
		saveRegistry();
		return outcomes;
	}

	private void advanceStops() {
		synchronized (this.lock) {
			long now = this.clock.getAsLong();
			this.children.values().forEach((child) -> child.advanceStop(now));
		}
		this.outbox.dispatch();
	}

	/**
	 * Applies what is due: restarts whose backoff has passed, readiness of children with a port, startup timeouts,
	 * stop escalations, port reclaims, stable-after resets, the end of adopted processes, stopped shepherds, remnants
	 * of exited groups and of killed shepherds' trees, and the registry. Never blocks on a child.
	 */
	public void tick() {
		this.reaper.drain();
		List<SupervisedChild> starting = new ArrayList<>();
		List<SupervisedChild> adopted = new ArrayList<>();
		List<SupervisedChild> spawned = new ArrayList<>();
		synchronized (this.lock) {
			long now = this.clock.getAsLong();
			for (SupervisedChild child : this.children.values()) {
				child.advanceStop(now);
				child.advancePortReclaim(now);
				child.restartIfDue(now);
				child.checkStable(now);
				ChildProcess process = child.process();
				if (process != null) {
					(process.adopted() ? adopted : spawned).add(child);
				}
				if (process != null && child.state() == ChildState.STARTING) {
					starting.add(child);
				}
			}
		}
		applyReadiness(starting);
		applyEndOfAdopted(adopted);
		this.shepherds.watch(spawned);
		launchWanted();
		this.orphans.sweep();
		this.outbox.dispatch();
		saveRegistry();
	}

	private void applyReadiness(List<SupervisedChild> starting) {
		for (SupervisedChild child : starting) {
			Integer port = child.spec().port();
			boolean accepts = port == null || PortGuard.acceptsConnections(port);
			synchronized (this.lock) {
				ChildProcess process = child.process();
				if (accepts) {
					child.ready();
				}
				else if (child.startupTimedOut(this.clock.getAsLong()) && process != null) {
					stopTarget(child, process).signal(Posix.SIGKILL);
				}
			}
		}
	}

	/** Adopted processes are not our children: their end is seen as their absence (or a new start time) in /proc. */
	private void applyEndOfAdopted(List<SupervisedChild> adopted) {
		for (SupervisedChild child : adopted) {
			ChildProcess process = child.process();
			if (process == null || this.probe.isRunning(process.pid(), process.startTime())) {
				continue;
			}
			synchronized (this.lock) {
				child.exited(process.pid(), ExitStatus.unknown(), this.clock.getAsLong(), random());
				this.orphans.groupExited(process.pid());
			}
		}
	}

	/**
	 * Launches every child that wants a process: its port is checked outside the lock, its spawn inside.
	 * @return each launched child as it stood right after its launch
	 */
	private Map<String, ChildSnapshot> launchWanted() {
		Map<String, ChildSnapshot> launched = new LinkedHashMap<>();
		List<SupervisedChild> claimed = new ArrayList<>();
		synchronized (this.lock) {
			if (this.reconciling > 0) {
				return launched;
			}
			this.children.values().stream().filter(SupervisedChild::claimLaunch).forEach(claimed::add);
		}
		for (SupervisedChild child : claimed) {
			PortClaim claim = this.launcher.inspectPort(child.spec());
			synchronized (this.lock) {
				if (!child.launchStillWanted() || this.closing) {
					continue;
				}
				long now = this.clock.getAsLong();
				if (claim instanceof PortClaim.HeldByOther held) {
					child.launchFailed(held.reason(), null);
				}
				else if (claim instanceof PortClaim.HeldByOurs ours) {
					logger.warn("Port {} is held by pid {}, an orphan of child '{}'; stopping it", child.spec().port(),
							ours.holder().pid(), child.name());
					StopLadder.Request request = this.orphans.stopRequest(ours.holder());
					child.reclaimingPort(StopLadder.begin(request.target(), request.signal(), request.timeout(), now));
				}
				else {
					this.launcher.spawn(child, (pid, status) -> onExit(child, pid, status), now);
				}
				launched.put(child.name(), child.snapshot(now));
			}
			this.saver.changed();
		}
		return launched;
	}

	private void onExit(SupervisedChild child, long pid, ExitStatus status) {
		synchronized (this.lock) {
			ChildProcess process = child.process();
			if (process != null && process.pid() == pid) {
				child.exited(pid, status, this.clock.getAsLong(), random());
				if (process.handle() == null) {
					this.orphans.exited(child.name(), process, status);
				}
			}
		}
		this.saver.changed();
		this.outbox.dispatch();
	}

	private static double random() {
		return ThreadLocalRandom.current().nextDouble();
	}

	private void saveRegistry() {
		this.saver.saveIfChanged(() -> {
			List<RegistryRow> rows = new ArrayList<>();
			synchronized (this.lock) {
				for (SupervisedChild child : this.children.values()) {
					RegistryRow row = child.row(this.owner.installationId());
					if (row != null) {
						rows.add(row);
					}
				}
			}
			return rows;
		});
	}

	private StopTarget stopTarget(SupervisedChild child, ChildProcess process) {
		return process.stopTarget(this.reaper, this.signaller, this.owner, child.spec());
	}

	private Set<Long> childPids() {
		synchronized (this.lock) {
			return this.children.values().stream().map(SupervisedChild::process).filter(Objects::nonNull)
				.map(ChildProcess::pid).collect(Collectors.toSet());
		}
	}

	private @Nullable ChildSpec specOf(String name) {
		synchronized (this.lock) {
			SupervisedChild child = this.children.get(name);
			return (child != null) ? child.spec() : null;
		}
	}

	private SupervisedChild child(String name) {
		SupervisedChild child = this.children.get(name);
		if (child == null) {
			throw new IllegalArgumentException("no child named '" + name + "'");
		}
		return child;
	}

	/**
	 * Stops every child and any process that escaped its group, saves the registry (with no running rows) and
	 * releases it. A second caller waits for the first to finish.
	 */
	@Override
	public void close() {
		boolean first;
		synchronized (this.lock) {
			first = !this.closing;
			this.closing = true;
		}
		if (!first) {
			this.closed.join();
			return;
		}
		try {
			stopAll();
			this.orphans.stopStrays();
			saveRegistry();
			this.registry.close();
			this.spawner.close();
		}
		finally {
			this.closed.complete(null);
		}
	}

}
