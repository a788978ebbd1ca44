package dev.tether.supervisor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.identity.ExpectedIdentity;
import dev.tether.supervisor.identity.IdentityProbe;
import dev.tether.supervisor.identity.ProcStat;
import dev.tether.supervisor.identity.ProcessSignaller;
import dev.tether.supervisor.identity.Verdict;
import dev.tether.supervisor.ports.PortListener;
import dev.tether.supervisor.ports.PortListeners;
import dev.tether.supervisor.reaper.Reaper;
import dev.tether.supervisor.reconcile.Reconciler;
import dev.tether.supervisor.reconcile.StopLadder;
import dev.tether.supervisor.registry.ChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.spawn.SpawnException;
import dev.tether.supervisor.spawn.SpawnRequest;
import dev.tether.supervisor.spawn.SpawnedChild;
import dev.tether.supervisor.spawn.Spawner;

/**
 * Starts, stops, restarts and watches children. {@link #tick()} applies due restarts, readiness, stable-after resets
 * and the liveness of adopted processes; it never blocks on a child. Exits arrive from the {@link Reaper} as they
 * happen.
 */
public final class Supervisor implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(Supervisor.class);

	private static final int SIGKILL = 9;

	private static final Duration KILL_GRACE = Duration.ofSeconds(5);

	private static final long STOP_POLL_MILLIS = 50;

	private static final int CONNECT_TIMEOUT_MILLIS = 100;

	private static final int MAX_COMMAND_SHOWN = 160;

	private static final int DEFAULT_STOP_SIGNAL = 15;

	private static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);

	private final String installationId;

	private final Spawner spawner;

	private final IdentityProbe probe;

	private final ProcessSignaller signaller;

	private final StopLadder stopLadder;

	private final Reaper reaper;

	private final ChildRegistry registry;

	private final Reconciler reconciler;

	private final OrphanPolicy orphanPolicy;

	private final Path logDirectory;

	private final PortListeners ports = new PortListeners();

	private final List<SupervisorListener> listeners;

	private final Object lock = new Object();

	private final Map<String, Child> children = new LinkedHashMap<>();

	private final Set<Long> pendingSweeps = new HashSet<>();

	private final ConcurrentLinkedQueue<ChildEvent> outbox = new ConcurrentLinkedQueue<>();

	private final Object dispatchLock = new Object();

	private final String bootId;

	private volatile ReconciliationReport lastReconciliation;

	private boolean registryDirty;

	private boolean closed;

	private Supervisor(Builder builder) {
		this.installationId = Objects.requireNonNull(builder.installationId, "installationId");
		this.spawner = Objects.requireNonNull(builder.spawner, "spawner");
		this.probe = Objects.requireNonNull(builder.probe, "probe");
		this.signaller = new ProcessSignaller(this.probe);
		this.stopLadder = new StopLadder(this.signaller);
		this.reaper = Objects.requireNonNull(builder.reaper, "reaper");
		this.registry = Objects.requireNonNull(builder.registry, "registry");
		this.reconciler = (builder.reconciler != null) ? builder.reconciler : new Reconciler(this.signaller);
		this.orphanPolicy = builder.orphanPolicy;
		this.logDirectory = Objects.requireNonNull(builder.logDirectory, "logDirectory");
		this.listeners = List.copyOf(builder.listeners);
		this.bootId = this.probe.bootId().orElse(null);
		builder.children.forEach(this::register);
	}

	public static Builder builder() {
		return new Builder();
	}

	/** The installation id stamped into every child. */
	public String installationId() {
		return this.installationId;
	}

	/** How children are tied to this JVM's life. */
	public ParentDeathMechanism parentDeathMechanism() {
		return this.spawner.parentDeathMechanism();
	}

	/** Whether identity can be verified here (else nothing of a previous run is ever signalled). */
	public boolean identityVerification() {
		return this.probe.isAvailable();
	}

	/** The last reconciliation, if one ran. */
	public Optional<ReconciliationReport> lastReconciliation() {
		return Optional.ofNullable(this.lastReconciliation);
	}

	/**
	 * Adds a child, {@code STOPPED}.
	 * @throws IllegalArgumentException when the name is taken
	 */
	public void register(ChildSpec spec) {
		synchronized (this.lock) {
			if (this.children.containsKey(spec.name())) {
				throw new InvalidChildSpecException(spec.name(), "name", "is already registered");
			}
			this.children.put(spec.name(), new Child(spec));
		}
	}

	/** Every child, in registration order. */
	public List<ChildSnapshot> snapshots() {
		synchronized (this.lock) {
			return this.children.values().stream().map(Child::snapshot).toList();
		}
	}

	/** One child, if registered. */
	public Optional<ChildSnapshot> snapshot(String name) {
		synchronized (this.lock) {
			return Optional.ofNullable(this.children.get(name)).map(Child::snapshot);
		}
	}

	/**
	 * Verifies what a previous run left behind and stops or adopts it (see {@link Reconciler}). Run it before the
	 * first start.
	 */
	public ReconciliationReport reconcile() {
		Set<Long> ownPids = new HashSet<>();
		synchronized (this.lock) {
			this.children.values().stream().filter((child) -> child.pid != 0).forEach((child) -> ownPids.add(child.pid));
		}
		Reconciler.Result result = this.reconciler.reconcile(this.installationId, this.registry.load(),
				this.orphanPolicy, (name) -> {
					synchronized (this.lock) {
						Child child = this.children.get(name);
						return child != null && child.pid == 0;
					}
				}, this::stopTarget, ownPids);
		synchronized (this.lock) {
			for (Reconciler.Adoption adoption : result.adoptions()) {
				Child child = this.children.get(adoption.identity().name());
				child.adopt(adoption);
			}
			this.registryDirty = true;
		}
		flushRegistry();
		this.lastReconciliation = result.report();
		return result.report();
	}

	/** Starts every child marked {@code autostart} that is not running. */
	public void startAutostart() {
		List<String> names;
		synchronized (this.lock) {
			names = this.children.values().stream().filter((child) -> child.spec.autostart()).map((child) -> child.spec.name()).toList();
		}
		names.forEach(this::start);
	}

	/**
	 * Starts a child (an operator start: it also clears {@code FAILED} and the breaker). A child that is already
	 * running is left as it is.
	 * @throws IllegalArgumentException when no child has that name
	 */
	public ChildSnapshot start(String name) {
		ChildSnapshot snapshot;
		synchronized (this.lock) {
			Child child = child(name);
			if (child.pid == 0 && child.state != ChildState.STOPPING) {
				child.restartTimes.clear();
				child.failureStreak = 0;
				child.lastError = null;
				spawn(child);
			}
			snapshot = child.snapshot();
		}
		dispatch();
		flushRegistry();
		return snapshot;
	}

	/**
	 * Stops a child through the stop ladder: its stop signal to its group, up to {@code stop-timeout}, then SIGKILL
	 * to the group, then the wait for its exit. Blocks the caller (not the tick) meanwhile.
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
		Map<String, StopOutcome> outcomes = new LinkedHashMap<>();
		Map<String, PendingStop> pending = new LinkedHashMap<>();
		synchronized (this.lock) {
			for (String name : names) {
				Child child = this.children.get(name);
				PendingStop stop = beginStop(child);
				if (stop.outcome.isDone()) {
					outcomes.put(name, stop.outcome.join());
				}
				else {
					pending.put(name, stop);
				}
			}
		}
		dispatch();
		pending.forEach((name, stop) -> outcomes.put(name, awaitStop(this.children.get(name), stop)));
		sweepGroups();
		dispatch();
		flushRegistry();
		return outcomes;
	}

	private PendingStop beginStop(Child child) {
		if (child.stop != null) {
			return child.stop;
		}
		PendingStop stop = new PendingStop(child.spec.stopTimeout());
		if (child.pid == 0) {
			if (child.state != ChildState.STOPPED) {
				child.state = ChildState.STOPPED;
				child.nextStartNanos = 0;
			}
			stop.outcome.complete(StopOutcome.NOT_RUNNING);
			return stop;
		}
		Verdict verdict = signalGroup(child, child.spec.stopSignal());
		if (verdict == Verdict.NOT_OURS || verdict == Verdict.UNVERIFIABLE) {
			child.lastError = "pid " + child.pid + " could not be verified as ours (" + verdict + "); not signalled";
			logger.warn("Child '{}': {}", child.spec.name(), child.lastError);
			child.detach(ChildState.STOPPED);
			this.registryDirty = true;
			stop.outcome.complete(StopOutcome.NOT_OURS);
			return stop;
		}
		child.state = ChildState.STOPPING;
		child.stop = stop;
		return stop;
	}

	private StopOutcome awaitStop(Child child, PendingStop stop) {
		while (true) {
			try {
				return stop.outcome.get(STOP_POLL_MILLIS, TimeUnit.MILLISECONDS);
			}
			catch (TimeoutException ex) {
				// Why: SIGCHLD normally completes the stop; polling here covers adopted processes (no SIGCHLD) and
				// the escalation deadlines without depending on anyone calling tick().
				this.reaper.drain();
				synchronized (this.lock) {
					watchAdopted(child);
					escalate(child, stop);
				}
				dispatch();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return StopOutcome.SURVIVED;
			}
			catch (ExecutionException ex) {
				throw new IllegalStateException(ex.getCause());
			}
		}
	}

	private void escalate(Child child, PendingStop stop) {
		if (stop.outcome.isDone() || child.stop != stop) {
			return;
		}
		long now = System.nanoTime();
		if (!stop.killed && now >= stop.killAtNanos) {
			stop.killed = true;
			stop.giveUpNanos = now + KILL_GRACE.toNanos();
			logger.info("Child '{}' (pid {}) outlived its stop timeout of {}; sending SIGKILL to its group",
					child.spec.name(), child.pid, child.spec.stopTimeout());
			if (signalGroup(child, SIGKILL) == Verdict.GONE) {
				watchAdopted(child);
			}
		}
		else if (stop.killed && now >= stop.giveUpNanos) {
			child.lastError = "pid " + child.pid + " survived SIGKILL";
			logger.error("Child '{}': {}", child.spec.name(), child.lastError);
			child.stop = null;
			child.detach(ChildState.FAILED);
			this.registryDirty = true;
			stop.outcome.complete(StopOutcome.SURVIVED);
			emit(ChildEvent.Type.FAILED, child, null, null, child.lastError, null);
		}
	}

	private Verdict signalGroup(Child child, int signal) {
		if (child.handle != null) {
			// Why: without /proc (non-Linux) the JDK's handle of our own unreaped child is the identity proof.
			boolean sent = (signal == SIGKILL) ? child.handle.destroyForcibly() : child.handle.destroy();
			return sent || child.handle.isAlive() ? Verdict.OURS : Verdict.GONE;
		}
		return this.signaller.signalGroup(child.identity(this.installationId), signal);
	}

	/**
	 * Applies what is due: restarts whose backoff has passed, readiness of children with a port, startup timeouts,
	 * stable-after resets, the liveness of adopted processes, remnants of exited groups, and the registry.
	 */
	public void tick() {
		this.reaper.drain();
		synchronized (this.lock) {
			long now = System.nanoTime();
			for (Child child : this.children.values()) {
				watchAdopted(child);
				switch (child.state) {
					case BACKOFF -> {
						if (now >= child.nextStartNanos) {
							child.restarts++;
							child.restartTimes.addLast(now);
							spawn(child);
						}
					}
					case STARTING -> checkReadiness(child, now);
					case RUNNING -> {
						if (child.failureStreak > 0 && now - child.startedNanos >= child.spec.stableAfter().toNanos()) {
							child.failureStreak = 0;
							child.restartTimes.clear();
						}
					}
					default -> {
					}
				}
			}
		}
		sweepGroups();
		dispatch();
		flushRegistry();
	}

	private void checkReadiness(Child child, long now) {
		if (accepts(child.spec.port())) {
			child.state = ChildState.RUNNING;
			logger.info("Child '{}' accepts connections on port {}", child.spec.name(), child.spec.port());
			return;
		}
		if (now >= child.readyDeadlineNanos && !child.startupTimedOut) {
			child.startupTimedOut = true;
			child.lastError = "did not accept connections on port " + child.spec.port() + " within "
					+ child.spec.startupTimeout();
			logger.warn("Child '{}' {}; killing it", child.spec.name(), child.lastError);
			signalGroup(child, SIGKILL);
		}
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** Must hold the lock. */
	private void watchAdopted(Child child) {
		if (child.adopted && child.pid != 0
				&& this.probe.verify(child.identity(this.installationId)) != Verdict.OURS) {
			applyExit(child, child.pid, ExitStatus.unknown());
		}
	}

	/** Must hold the lock. */
	private void spawn(Child child) {
		ChildSpec spec = child.spec;
		child.startupTimedOut = false;
		if (spec.port() != null && !claimPort(child)) {
			child.state = ChildState.FAILED;
			emit(ChildEvent.Type.FAILED, child, null, null, child.lastError, null);
			return;
		}
		Map<String, String> environment = ChildMarkers.stamp(System.getenv(), spec.environment(), this.installationId,
				spec.kind(), spec.name());
		Path log = (spec.logFile() != null) ? spec.logFile() : this.logDirectory.resolve(spec.name() + ".log");
		SpawnedChild spawned;
		long spawnStarted = System.nanoTime();
		try {
			spawned = this.spawner.spawn(new SpawnRequest(spec.command(), environment, spec.workingDirectory(), log, null),
					(pid, status) -> onExit(child, pid, status));
		}
		catch (SpawnException ex) {
			child.lastError = ex.getMessage();
			child.state = ChildState.FAILED;
			logger.error("Child '{}' could not be started: {}", spec.name(), ex.getMessage());
			emit(ChildEvent.Type.FAILED, child, null, Duration.ofNanos(System.nanoTime() - spawnStarted),
					child.lastError, null);
			return;
		}
		child.pid = spawned.pid();
		child.handle = spawned.handle();
		child.adopted = false;
		child.startTime = this.probe.stat(spawned.pid()).map(ProcStat::startTime).orElse(null);
		child.bootId = this.bootId;
		child.startedAt = Instant.now();
		child.startedNanos = System.nanoTime();
		child.state = (spec.port() != null) ? ChildState.STARTING : ChildState.RUNNING;
		child.readyDeadlineNanos = child.startedNanos + spec.startupTimeout().toNanos();
		this.registryDirty = true;
		logger.info("Child '{}' started as pid {}", spec.name(), child.pid);
		emit(ChildEvent.Type.STARTED, child, null, spawned.duration(), null, null);
	}

	/**
	 * Makes sure a child's port is free: an orphan of ours holding it is stopped; anything else fails the start.
	 * Must hold the lock.
	 */
	private boolean claimPort(Child child) {
		int port = child.spec.port();
		Optional<PortListener> listener = this.ports.find(port);
		if (listener.isEmpty()) {
			return true;
		}
		long holder = listener.get().pid();
		if (!listener.get().hasPid()) {
			child.lastError = "port " + port + " is held by a process that cannot be identified";
			return false;
		}
		ExpectedIdentity identity = new ExpectedIdentity(holder, this.installationId, child.spec.kind(),
				child.spec.name(), null, null);
		String command = abbreviated(this.probe.commandLine(holder).orElse("?"));
		if (this.probe.verify(identity) != Verdict.OURS) {
			child.lastError = "port " + port + " is held by pid " + holder + " (" + command + ")";
			logger.error("Child '{}' cannot start: {}; that process is not ours and is left alone", child.spec.name(),
					child.lastError);
			return false;
		}
		logger.warn("Port {} is held by pid {}, an orphan of child '{}'; stopping it", port, holder, child.spec.name());
		StopOutcome outcome = this.stopLadder.stop(List.of(stopTarget(identity))).get(0);
		if (outcome == StopOutcome.SURVIVED || outcome == StopOutcome.NOT_OURS) {
			child.lastError = "port " + port + " is held by pid " + holder + " (" + command + "), which could not be stopped";
			return false;
		}
		return true;
	}

	private static String abbreviated(String commandLine) {
		return (commandLine.length() <= MAX_COMMAND_SHOWN) ? commandLine
				: commandLine.substring(0, MAX_COMMAND_SHOWN) + "...";
	}

	private void onExit(Child child, long pid, ExitStatus status) {
		synchronized (this.lock) {
			applyExit(child, pid, status);
		}
		dispatch();
	}

	/** Must hold the lock. */
	private void applyExit(Child child, long pid, ExitStatus status) {
		if (child.pid != pid) {
			return;
		}
		if (child.handle == null) {
			this.pendingSweeps.add(pid);
		}
		child.lastExit = status;
		this.registryDirty = true;
		PendingStop stop = child.stop;
		if (stop != null) {
			child.stop = null;
			child.detach(ChildState.STOPPED);
			StopOutcome outcome = stop.killed ? StopOutcome.KILLED : StopOutcome.EXITED;
			logger.info("Child '{}' stopped ({}, {})", child.spec.name(), outcome, status);
			emit(ChildEvent.Type.STOPPED, child, status, null, null, outcome);
			stop.outcome.complete(outcome);
			return;
		}
		boolean failed = child.startupTimedOut || !status.isClean();
		child.detach(ChildState.EXITED);
		logger.info("Child '{}' (pid {}) exited: {}", child.spec.name(), pid, status);
		emit(ChildEvent.Type.EXITED, child, status, null, null, null);
		if (!child.spec.restart().restartsAfter(failed)) {
			return;
		}
		long now = System.nanoTime();
		long window = child.spec.restartWindow().toNanos();
		while (!child.restartTimes.isEmpty() && now - child.restartTimes.peekFirst() > window) {
			child.restartTimes.removeFirst();
		}
		if (child.restartTimes.size() >= child.spec.maxRestarts()) {
			child.state = ChildState.FAILED;
			child.lastError = "restarted " + child.restartTimes.size() + " times within "
					+ child.spec.restartWindow() + "; last " + status;
			logger.error("Child '{}' is FAILED: {}", child.spec.name(), child.lastError);
			emit(ChildEvent.Type.FAILED, child, status, null, child.lastError, null);
			return;
		}
		Duration delay = jittered(child.spec.backoff(), child.failureStreak);
		child.failureStreak++;
		child.nextStartNanos = now + delay.toNanos();
		child.state = ChildState.BACKOFF;
		logger.info("Child '{}' restarts in {} ms", child.spec.name(), delay.toMillis());
		emit(ChildEvent.Type.RESTARTING, child, status, delay, null, null);
	}

	private static Duration jittered(ChildSpec.Backoff backoff, int failures) {
		long base = backoff.delay(failures).toMillis();
		double spread = (backoff.jitter() == 0) ? 0 : ThreadLocalRandom.current().nextDouble(-backoff.jitter(), backoff.jitter());
		return Duration.ofMillis(Math.max(1, Math.round(base * (1 + spread))));
	}

	/** Ends members left in the groups of exited children: each verified by marker, then SIGKILLed. */
	private void sweepGroups() {
		List<Long> groups;
		synchronized (this.lock) {
			if (this.pendingSweeps.isEmpty()) {
				return;
			}
			groups = List.copyOf(this.pendingSweeps);
			this.pendingSweeps.clear();
		}
		int killed = this.signaller.signalGroupRemnants(this.installationId, Set.copyOf(groups), SIGKILL);
		if (killed > 0) {
			logger.info("Killed {} remaining member(s) of the process groups {}", killed, groups);
		}
	}

	private void emit(ChildEvent.Type type, Child child, ExitStatus exit, Duration duration, String error,
			StopOutcome outcome) {
		this.outbox.add(new ChildEvent(type, child.snapshot(), exit, duration, error, outcome));
	}

	private void dispatch() {
		if (Thread.holdsLock(this.lock)) {
			return;
		}
		synchronized (this.dispatchLock) {
			ChildEvent event;
			while ((event = this.outbox.poll()) != null) {
				for (SupervisorListener listener : this.listeners) {
					try {
						listener.onEvent(event);
					}
					catch (RuntimeException ex) {
						logger.warn("Listener failed on {} of '{}'", event.type(), event.child().name(), ex);
					}
				}
			}
		}
	}

	private void flushRegistry() {
		List<RegistryRow> rows;
		synchronized (this.lock) {
			if (!this.registryDirty || this.closed) {
				return;
			}
			this.registryDirty = false;
			rows = new ArrayList<>();
			for (Child child : this.children.values()) {
				if (child.pid != 0) {
					rows.add(new RegistryRow(child.spec.name(), child.spec.kind().id(), this.installationId, child.pid,
							child.pid, child.startTime, this.bootId, child.state.name(), child.startedAt, child.restarts,
							child.spec.port()));
				}
			}
		}
		try {
			this.registry.save(rows);
		}
		catch (RuntimeException ex) {
			synchronized (this.lock) {
				this.registryDirty = true;
			}
			logger.error("Registry could not be saved: {}", ex.getMessage());
		}
	}

	private Child child(String name) {
		Child child = this.children.get(name);
		if (child == null) {
			throw new IllegalArgumentException("no child named '" + name + "'");
		}
		return child;
	}

	/**
	 * Ends what carries this installation's markers but is no longer any child's process: daemons that left their
	 * child's group and session. Each is verified by its markers before it is signalled.
	 */
	private void stopStrays() {
		List<StopLadder.Target> strays = new ArrayList<>();
		for (var marked : this.probe.scanMarked(this.installationId)) {
			this.probe.stat(marked.pid())
				.ifPresent((stat) -> strays.add(stopTarget(new ExpectedIdentity(marked.pid(), this.installationId,
						marked.kind(), marked.name(), stat.startTime(), this.bootId))));
		}
		if (!strays.isEmpty()) {
			logger.info("Stopping {} process(es) that carry this installation's markers but left their child's group",
					strays.size());
			this.stopLadder.stop(strays);
		}
	}

	/**
	 * How a process of ours is stopped: with its child's stop signal and timeout, or the defaults for a name that is
	 * no longer configured.
	 */
	private StopLadder.Target stopTarget(ExpectedIdentity identity) {
		ChildSpec spec;
		synchronized (this.lock) {
			Child child = this.children.get(identity.name());
			spec = (child != null) ? child.spec : null;
		}
		return (spec != null) ? new StopLadder.Target(identity, spec.stopSignal(), spec.stopTimeout())
				: new StopLadder.Target(identity, DEFAULT_STOP_SIGNAL, DEFAULT_STOP_TIMEOUT);
	}

	/** Stops every child and any process that escaped its group, saves the registry (with no running rows) and releases it. */
	@Override
	public void close() {
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
		}
		stopAll();
		stopStrays();
		flushRegistry();
		synchronized (this.lock) {
			this.closed = true;
		}
		this.registry.close();
		this.spawner.close();
	}

	private static final class PendingStop {

		final CompletableFuture<StopOutcome> outcome = new CompletableFuture<>();

		final long killAtNanos;

		boolean killed;

		long giveUpNanos;

		PendingStop(Duration timeout) {
			this.killAtNanos = System.nanoTime() + timeout.toNanos();
		}

	}

	private static final class Child {

		final ChildSpec spec;

		ChildState state = ChildState.STOPPED;

		long pid;

		ProcessHandle handle;

		boolean adopted;

		Long startTime;

		String bootId;

		Instant startedAt;

		long startedNanos;

		int restarts;

		int failureStreak;

		final Deque<Long> restartTimes = new ArrayDeque<>();

		long nextStartNanos;

		long readyDeadlineNanos;

		boolean startupTimedOut;

		ExitStatus lastExit;

		String lastError;

		PendingStop stop;

		Child(ChildSpec spec) {
			this.spec = spec;
		}

		ExpectedIdentity identity(String installationId) {
			return new ExpectedIdentity(this.pid, installationId, this.spec.kind(), this.spec.name(), this.startTime,
					this.bootId);
		}

		void adopt(Reconciler.Adoption adoption) {
			this.pid = adoption.identity().pid();
			this.startTime = adoption.identity().startTime();
			this.bootId = adoption.identity().bootId();
			this.adopted = true;
			this.handle = null;
			this.startedAt = (adoption.row().spawnedAt() != null) ? adoption.row().spawnedAt() : Instant.now();
			this.startedNanos = System.nanoTime() - Duration.between(this.startedAt, Instant.now()).toNanos();
			this.restarts = adoption.row().restarts();
			this.state = ChildState.RUNNING;
		}

		void detach(ChildState next) {
			this.pid = 0;
			this.handle = null;
			this.adopted = false;
			this.startTime = null;
			this.state = next;
		}

		ChildSnapshot snapshot() {
			boolean running = this.pid != 0;
			long uptime = running ? Math.max(0, Duration.between(this.startedAt, Instant.now()).toSeconds()) : 0;
			return new ChildSnapshot(this.spec.name(), this.spec.kind(), this.state, running ? this.pid : null,
					running ? this.startedAt : null, uptime, this.restarts, this.spec.port(), this.lastExit,
					this.lastError, this.adopted);
		}

	}

	/** Builds a {@link Supervisor}. */
	public static final class Builder {

		private String installationId = "default";

		private Spawner spawner;

		private IdentityProbe probe = IdentityProbe.forPlatform();

		private Reaper reaper = Reaper.shared();

		private ChildRegistry registry;

		private Reconciler reconciler;

		private OrphanPolicy orphanPolicy = OrphanPolicy.STOP;

		private Path logDirectory;

		private final List<SupervisorListener> listeners = new ArrayList<>();

		private final List<ChildSpec> children = new ArrayList<>();

		private Builder() {
		}

		public Builder installationId(String installationId) {
			this.installationId = installationId;
			return this;
		}

		public Builder spawner(Spawner spawner) {
			this.spawner = spawner;
			return this;
		}

		public Builder probe(IdentityProbe probe) {
			this.probe = probe;
			return this;
		}

		public Builder reaper(Reaper reaper) {
			this.reaper = reaper;
			return this;
		}

		public Builder registry(ChildRegistry registry) {
			this.registry = registry;
			return this;
		}

		public Builder reconciler(Reconciler reconciler) {
			this.reconciler = reconciler;
			return this;
		}

		public Builder orphanPolicy(OrphanPolicy orphanPolicy) {
			this.orphanPolicy = orphanPolicy;
			return this;
		}

		/** Where child logs go unless a child names its own file. */
		public Builder logDirectory(Path logDirectory) {
			this.logDirectory = logDirectory;
			return this;
		}

		public Builder listener(SupervisorListener listener) {
			this.listeners.add(listener);
			return this;
		}

		public Builder child(ChildSpec spec) {
			this.children.add(spec);
			return this;
		}

		public Supervisor build() {
			return new Supervisor(this);
		}

	}

}
