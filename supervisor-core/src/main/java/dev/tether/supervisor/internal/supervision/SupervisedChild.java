package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.HeldSocket;
import dev.tether.supervisor.RestartMode;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.ExpectedIdentity;
import dev.tether.supervisor.internal.notify.NotifyChannel;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.output.LineWatch;
import dev.tether.supervisor.internal.ports.PortGuard.PortClaim;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.stop.Stop;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.StopTarget;

/**
 * One child's state machine: its state, its process, its restart budget, its stop in
 * progress, and every transition between them, each emitting its event. Every method but
 * {@link #spec()} and {@link #name()} asserts that the caller holds the supervisor's lock
 * ({@link ChildTable}) and returns at once; nothing here waits on a process.
 */
final class SupervisedChild {

	private static final Logger logger = LoggerFactory.getLogger(SupervisedChild.class);

	private final ChildSpec spec;

	private final EventOutbox outbox;

	private final RestartBudget budget;

	private final LongSupplier clock;

	// Why: only to assert that its lock is held; the table owns this child.
	private final ChildTable children;

	private ChildState state = ChildState.STOPPED;

	private @Nullable ChildProcess process;

	private boolean startupTimedOut;

	// Why kept apart from lastError: it marks a stop that the child's health asked for,
	// whose end is a failure for the restart policy, where an operator's stop ends in
	// STOPPED.
	private @Nullable String failedCheck;

	private @Nullable ExitStatus lastExit;

	private @Nullable String lastError;

	private @Nullable HeldSocket socket;

	private final RollingSuccession succession;

	private @Nullable Stop stop;

	private @Nullable CompletableFuture<StopOutcome> stopOutcome;

	private final LaunchGate launch = new LaunchGate();

	private final ChildProbes probes = new ChildProbes();

	private ShepherdedCommand command = new ShepherdedCommand();

	private boolean removed;

	private @Nullable Refusal refused;

	SupervisedChild(ChildSpec spec, EventOutbox outbox, LongSupplier clock, ChildTable children) {
		this.spec = spec;
		this.outbox = outbox;
		this.clock = clock;
		this.children = children;
		this.budget = new RestartBudget(spec);
		this.succession = new RollingSuccession(spec.name());
	}

	ChildSpec spec() {
		return this.spec;
	}

	String name() {
		return this.spec.name();
	}

	ChildState state() {
		this.children.assertHeld();
		return this.state;
	}

	@Nullable ChildProcess process() {
		this.children.assertHeld();
		return this.process;
	}

	/** How many times it was restarted, in all. */
	int restarts() {
		this.children.assertHeld();
		return this.budget.restarts();
	}

	/**
	 * An operator start: clears {@code FAILED} and the breaker. Returns whether a launch
	 * is now wanted.
	 */
	boolean requestStart() {
		this.children.assertHeld();
		if (this.removed) {
			throw new IllegalArgumentException("child '" + name() + "' is being removed");
		}
		if (this.process != null || this.state == ChildState.STOPPING || this.launch.wanted()) {
			return false;
		}
		this.budget.reset();
		this.lastError = null;
		this.refused = null;
		wantLaunch();
		return true;
	}

	/**
	 * Its start was refused for want of room ({@link Refusal}): {@code FAILED}, and not
	 * retried until room frees up ({@link #retryRefused}).
	 * @param spawnDuration how long the refused spawn took, or {@code null} when none was
	 * tried
	 */
	void refused(Refusal why, String error, @Nullable Duration spawnDuration) {
		this.children.assertHeld();
		launchFailed(error, spawnDuration);
		this.refused = why;
	}

	/** Starts it again if its last start was refused for {@code why}. */
	boolean retryRefused(Refusal why) {
		this.children.assertHeld();
		return this.refused == why && this.state == ChildState.FAILED && !this.removed && requestStart();
	}

	/** The backoff has passed: the restart is due. */
	boolean restartIfDue(long nowNanos) {
		this.children.assertHeld();
		if (this.removed || this.state != ChildState.BACKOFF || !this.budget.due(nowNanos)) {
			return false;
		}
		this.budget.restarted(nowNanos);
		wantLaunch();
		return true;
	}

	private void wantLaunch() {
		this.launch.want();
		this.children.wantsLaunch(this);
		this.state = ChildState.STARTING;
	}

	/** Whether it wants a launch, and who may take it (see {@link LaunchDispatcher}). */
	LaunchGate launch() {
		this.children.assertHeld();
		return this.launch;
	}

	void launched(SpawnedChild spawned, @Nullable Long startTime, @Nullable String bootId,
			@Nullable NotifyChannel notify, @Nullable LineWatch lineWatch, long nowNanos) {
		this.children.assertHeld();
		this.launch.drop();
		this.startupTimedOut = false;
		this.process = new ChildProcess(spawned.pid(), spawned.handle(), false, spawned.shepherd(), startTime, bootId,
				Instant.now(), nowNanos, notify, lineWatch);
		this.command = new ShepherdedCommand();
		boolean waits = this.spec.port() != null || this.spec.selfReport().readiness()
				|| this.spec.startupDelay() != null;
		this.state = waits ? ChildState.STARTING : ChildState.RUNNING;
		if (!spawned.shepherd()) {
			logger.info("Child '{}' started as pid {}", name(), spawned.pid());
		}
		emit(ChildEvent.Type.STARTED, null, spawned.duration(), null, null, null);
	}

	/** The listening socket the supervisor now holds for it (socket activation). */
	void holds(@Nullable HeldSocket socket) {
		this.children.assertHeld();
		this.socket = socket;
	}

	void launchFailed(String error, @Nullable Duration spawnDuration) {
		this.children.assertHeld();
		this.launch.drop();
		if (this.succession.mayTakeBack() && this.process == null) {
			predecessorTakesBack(null, "could not be started: " + error, null);
			return;
		}
		this.lastError = error;
		this.state = ChildState.FAILED;
		logger.error("Child '{}' could not be started: {}", name(), error);
		emit(ChildEvent.Type.FAILED, null, spawnDuration, error, null, null);
	}

	/**
	 * Acts on who holds the child's port: another process fails the start; an orphan of
	 * ours is stopped first, and the launch waits for that stop
	 * ({@link #advancePortReclaim}).
	 * @param stops how an orphan of ours is stopped
	 * @return whether the port is free, so that the spawn may go ahead
	 */
	boolean portFree(PortClaim claim, Function<ExpectedIdentity, StopLadder.Request> stops, long nowNanos) {
		this.children.assertHeld();
		if (claim instanceof PortClaim.HeldByOther held) {
			launchFailed(held.reason(), null);
			return false;
		}
		if (claim instanceof PortClaim.Unidentified unidentified) {
			launchFailed(unidentified.reason(), null);
			return false;
		}
		if (claim instanceof PortClaim.HeldByOurs ours) {
			this.launch.reclaim(name(), this.spec.port(), ours.holder(), stops, nowNanos);
			return false;
		}
		return true;
	}

	/** Moves a port reclaim on; when it failed, so does the start. */
	void advancePortReclaim(long nowNanos) {
		this.children.assertHeld();
		String failure = this.launch.advanceReclaim(nowNanos);
		if (failure != null) {
			launchFailed(failure, null);
		}
	}

	/**
	 * The result of a readiness check of {@code checked}, made outside the lock: the
	 * child is ready when it passed; past its startup timeout it is killed (once), and
	 * its exit then counts as a failure.
	 * @param waitingFor what readiness is, for the log and lastError:
	 * {@code accept connections on port 8080}
	 * @param target how {@code checked} is signalled
	 */
	void readinessChecked(ChildProcess checked, boolean ready, String waitingFor, StopTarget target, long nowNanos) {
		this.children.assertHeld();
		if (this.process != checked || this.state != ChildState.STARTING) {
			return;
		}
		if (ready) {
			ready(waitingFor, nowNanos);
			return;
		}
		if (this.startupTimedOut || this.stop != null
				|| nowNanos - checked.startedNanos() < this.spec.startupTimeout().toNanos()) {
			return;
		}
		this.startupTimedOut = true;
		this.lastError = "did not " + waitingFor + " within " + this.spec.startupTimeout();
		logger.warn("Child '{}' {}; killing it", name(), this.lastError);
		target.signal(Posix.SIGKILL);
	}

	/**
	 * A rolling restart ({@code restart-mode: rolling}): the current process goes on
	 * serving as the {@link Predecessor} while a new one is launched; it is stopped once
	 * the new one is ready, or takes the child back if the new one fails first.
	 * @param target how the current process is signalled
	 * @param reason why it restarts (a failed check), or {@code null} for an operator's
	 * restart
	 * @return whether it began: only for a running process of this supervisor's own, not
	 * while a stop or another rolling restart is under way
	 */
	boolean beginRolling(StopTarget target, @Nullable String reason, long nowNanos) {
		this.children.assertHeld();
		ChildProcess current = this.process;
		if (current == null || current.adopted() || this.state != ChildState.RUNNING || this.stop != null
				|| this.succession.predecessor() != null || this.removed) {
			return false;
		}
		this.succession.begin(current, this.command, target);
		this.process = null;
		this.command = new ShepherdedCommand();
		this.lastError = reason;
		if (reason != null) {
			this.budget.restarted(nowNanos);
		}
		logger.info("Child '{}' restarts rolling{}: pid {} serves until the new process is ready", name(),
				(reason != null) ? " (" + reason + ")" : "", current.pid());
		wantLaunch();
		return true;
	}

	/** The rolling restart under way, or {@code null}. */
	@Nullable Predecessor predecessor() {
		this.children.assertHeld();
		return this.succession.predecessor();
	}

	/**
	 * The predecessor's process ended, or its stop is over without an exit to wait for:
	 * it is gone, and a stop that waited for it completes.
	 */
	private void predecessorGone(String how) {
		StopOutcome waiting = this.succession.ended(how);
		if (waiting != null) {
			completeStop(waiting);
		}
	}

	/**
	 * The new process of a rolling restart ended before it was ready: the predecessor,
	 * which still serves, is the child's process again.
	 */
	private void predecessorTakesBack(@Nullable ChildProcess failed, @Nullable String what,
			@Nullable ExitStatus status) {
		Long pid = (failed != null) ? this.command.pid(name(), failed) : null;
		String which = (failed != null) ? "the new process (pid " + ((pid != null) ? pid : failed.pid()) + ")"
				: "the new process";
		Predecessor previous = this.succession.takeBack();
		this.process = previous.process();
		this.command = previous.command();
		this.state = ChildState.RUNNING;
		this.stop = null;
		this.failedCheck = null;
		this.startupTimedOut = false;
		if (status != null) {
			this.lastExit = status;
		}
		this.lastError = which + " " + what + "; pid " + this.command.pid(name(), this.process) + " goes on serving";
		logger.warn("Child '{}': {}", name(), this.lastError);
		emit(ChildEvent.Type.EXITED, status, null, this.lastError, null, null);
	}

	private void ready(String waitingFor, long nowNanos) {
		this.state = ChildState.RUNNING;
		logger.info("Child '{}' is ready: it did {}", name(), waitingFor);
		this.succession.stopReplaced(this.spec, nowNanos);
	}

	/** With {@code startup-delay}: ready once its process has run that long. */
	void checkStartupDelay(long nowNanos) {
		this.children.assertHeld();
		Duration delay = this.spec.startupDelay();
		ChildProcess current = this.process;
		if (delay != null && current != null && this.state == ChildState.STARTING
				&& nowNanos - current.startedNanos() >= delay.toNanos()) {
			ready("run for " + delay, nowNanos);
		}
	}

	/** {@code checked} reported an error of its own (notify protocol): its lastError. */
	void reported(ChildProcess checked, String error) {
		this.children.assertHeld();
		if (this.process == checked) {
			this.lastError = error;
		}
	}

	/** Its probes' results and schedule, for the current process. */
	ChildProbes probes() {
		this.children.assertHeld();
		return this.probes;
	}

	/**
	 * A check of {@code checked}'s health failed for good (liveness, memory): it is
	 * stopped through the ladder, and its end counts as a failure for the restart policy
	 * and the breaker, with {@code reason} in lastError and events.
	 */
	void checkFailed(ChildProcess checked, String reason, StopTarget target, long nowNanos) {
		this.children.assertHeld();
		if (this.process != checked || this.stop != null || this.removed) {
			return;
		}
		// Why only while the policy and the breaker allow a restart: otherwise the ladder
		// below ends it, and its exit is judged as any failure's.
		if (this.spec.restartMode() == RestartMode.ROLLING && this.spec.restart().restartsAfter(true)
				&& this.budget.allowsRestart(nowNanos) && beginRolling(target, reason, nowNanos)) {
			return;
		}
		this.failedCheck = reason;
		this.lastError = reason;
		this.state = ChildState.STOPPING;
		logger.warn("Child '{}' {}; restarting it", name(), reason);
		this.stop = StopLadder.begin(target, this.spec.stopSignal(), this.spec.stopTimeout(), nowNanos);
		advanceStop(nowNanos);
	}

	/**
	 * The adopted process {@code checked} is gone from {@code /proc}: whether it was
	 * still this child's.
	 */
	boolean adoptedGone(ChildProcess checked, long nowNanos, double random) {
		this.children.assertHeld();
		if (this.process != checked) {
			return false;
		}
		exited(checked.pid(), ExitStatus.unknown(), nowNanos, random);
		return true;
	}

	/**
	 * Resets backoff and breaker once the process has been up for {@code stable-after}.
	 */
	void checkStable(long nowNanos) {
		this.children.assertHeld();
		ChildProcess current = this.process;
		if (this.state == ChildState.RUNNING && current != null) {
			this.budget.checkStable(current.startedNanos(), nowNanos);
		}
	}

	/**
	 * The process {@code pid} ended: completes a stop in progress, or applies the restart
	 * policy.
	 * @param random a draw in {@code [0, 1)} for the backoff's jitter
	 */
	void exited(long pid, ExitStatus status, long nowNanos, double random) {
		this.children.assertHeld();
		if (this.succession.replaces(pid)) {
			predecessorGone("ended: " + status);
			return;
		}
		ChildProcess current = this.process;
		if (current == null || current.pid() != pid) {
			return;
		}
		if (this.succession.mayTakeBack()) {
			String why = this.startupTimedOut ? this.lastError
					: (this.failedCheck != null) ? this.failedCheck : "exited before it was ready: " + status;
			predecessorTakesBack(current, why, status);
			return;
		}
		this.lastExit = status;
		Stop pending = this.stop;
		this.stop = null;
		if (pending != null && this.failedCheck == null) {
			finishStop(pending.ended(), status);
			return;
		}
		String check = this.failedCheck;
		boolean exitedByItself = !this.startupTimedOut && check == null;
		detach(ChildState.EXITED);
		logger.info("Child '{}' (pid {}) exited: {}", name(), pid, status);
		emit(ChildEvent.Type.EXITED, status, null, check, null, null);
		AfterExit next = AfterExit.decide(this.spec, this.budget, status, exitedByItself, nowNanos, random);
		if (next.failure() != null) {
			this.state = ChildState.FAILED;
			this.lastError = next.failure();
			logger.error("Child '{}' is FAILED: {}", name(), this.lastError);
			emit(ChildEvent.Type.FAILED, status, null, this.lastError, null, null);
			return;
		}
		Duration delay = next.restartDelay();
		if (delay == null) {
			return;
		}
		this.state = ChildState.BACKOFF;
		logger.info("Child '{}' restarts in {} ms", name(), delay.toMillis());
		emit(ChildEvent.Type.RESTARTING, status, null, check, null, delay);
	}

	/**
	 * Starts the stop ladder on the child's process, or ends a wanted launch or backoff
	 * at once.
	 * @return the outcome, completed when the stop is over
	 */
	CompletableFuture<StopOutcome> beginStop(@Nullable StopTarget target, long nowNanos) {
		this.children.assertHeld();
		CompletableFuture<StopOutcome> pending = this.stopOutcome;
		if (pending != null) {
			return pending;
		}
		this.launch.drop();
		// Why: without a new process (not launched yet, or ended), what runs is the
		// process a rolling restart replaces, and this stop stops it, through the ladder
		// it may be in already.
		Predecessor previous = (this.process == null) ? this.succession.takeBack() : null;
		if (previous != null) {
			this.process = previous.process();
			this.command = previous.command();
			this.stop = previous.stop();
			target = previous.target();
		}
		this.succession.stopReplaced(this.spec, nowNanos);
		if (this.process == null || target == null) {
			this.state = ChildState.STOPPED;
			return CompletableFuture.completedFuture(StopOutcome.NOT_RUNNING);
		}
		if (this.stop == null) {
			this.stop = StopLadder.begin(target, this.spec.stopSignal(), this.spec.stopTimeout(), nowNanos);
		}
		// An operator's stop: its end is STOPPED, even where a failed check began the
		// ladder.
		this.failedCheck = null;
		CompletableFuture<StopOutcome> outcome = new CompletableFuture<>();
		this.stopOutcome = outcome;
		this.state = ChildState.STOPPING;
		advanceStop(nowNanos);
		return outcome;
	}

	/**
	 * Moves a stop on: SIGKILL after the timeout, {@code SURVIVED} after the grace, an
	 * adopted process's end.
	 */
	void advanceStop(long nowNanos) {
		this.children.assertHeld();
		if (this.succession.advance(nowNanos)) {
			predecessorGone("is left alone");
		}
		Stop pending = this.stop;
		if (pending == null) {
			return;
		}
		StopOutcome outcome = pending.advance(nowNanos);
		if (outcome == null) {
			return;
		}
		ChildProcess current = this.process;
		if (outcome == StopOutcome.EXITED || outcome == StopOutcome.KILLED) {
			if (current != null && !current.adopted()) {
				// Our own child: its reaped exit completes the stop, with its real
				// status.
				return;
			}
			if (current != null && this.failedCheck != null) {
				exited(current.pid(), ExitStatus.unknown(), nowNanos, ThreadLocalRandom.current().nextDouble());
				return;
			}
			this.lastExit = ExitStatus.unknown();
			finishStop(outcome, this.lastExit);
			return;
		}
		this.lastError = (outcome == StopOutcome.SURVIVED)
				? "pid " + ((current != null) ? current.pid() : 0) + " survived SIGKILL"
				: "pid " + ((current != null) ? current.pid() : 0) + " could not be verified as ours; not signalled";
		logger.error("Child '{}': {}", name(), this.lastError);
		this.stop = null;
		detach((outcome == StopOutcome.SURVIVED) ? ChildState.FAILED : ChildState.STOPPED);
		if (outcome == StopOutcome.SURVIVED) {
			emit(ChildEvent.Type.FAILED, null, null, this.lastError, null, null);
		}
		completeStop(outcome);
	}

	private void finishStop(StopOutcome outcome, ExitStatus status) {
		this.stop = null;
		detach(ChildState.STOPPED);
		logger.info("Child '{}' stopped ({}, {})", name(), outcome, status);
		emit(ChildEvent.Type.STOPPED, status, null, null, outcome, null);
		completeStop(outcome);
	}

	private void completeStop(StopOutcome outcome) {
		if (this.stopOutcome != null && this.succession.holdsBack(outcome)) {
			return;
		}
		CompletableFuture<StopOutcome> pending = this.stopOutcome;
		this.stopOutcome = null;
		if (pending != null) {
			pending.complete(outcome);
		}
	}

	/**
	 * The child is being removed: nothing starts it again, and its stop is its last
	 * transition.
	 */
	void retire() {
		this.children.assertHeld();
		this.removed = true;
	}

	/** Whether it is being removed (see {@link #retire}). */
	boolean retired() {
		this.children.assertHeld();
		return this.removed;
	}

	/** The child is no longer supervised: its last event. */
	void forgotten() {
		this.children.assertHeld();
		logger.info("Child '{}' removed", name());
		emit(ChildEvent.Type.REMOVED, this.lastExit, null, null, null, null);
	}

	/** Takes over a verified orphan of a previous run. */
	void adopt(Reconciler.Adoption adoption, long nowNanos) {
		this.children.assertHeld();
		this.process = ChildProcess.adopted(adoption, nowNanos);
		this.budget.adopted(adoption.row().restarts());
		this.state = ChildState.RUNNING;
	}

	private void detach(ChildState next) {
		this.process = null;
		this.failedCheck = null;
		this.state = next;
	}

	ChildSnapshot snapshot(long nowNanos) {
		this.children.assertHeld();
		ChildProcess current = this.process;
		long uptime = (current != null) ? Math.max(0, Duration.ofNanos(nowNanos - current.startedNanos()).toSeconds())
				: 0;
		return new ChildSnapshot(name(), this.spec.kind(), this.state,
				(current != null) ? this.command.pid(name(), current) : null,
				(current != null) ? current.startedAt() : null, uptime, this.budget.restarts(), this.spec.port(),
				this.lastExit, this.lastError, current != null && current.adopted(),
				(current != null && current.shepherd()) ? current.pid() : null, this.probes.readiness(current),
				this.probes.liveness(current), this.spec.critical(),
				(current != null && current.notifyChannel() != null) ? current.notifyChannel().status() : null,
				this.socket);
	}

	/**
	 * What is known of the command its current shepherd forked (see
	 * {@link ShepherdWatch}).
	 */
	ShepherdedCommand command() {
		this.children.assertHeld();
		return this.command;
	}

	/**
	 * Its shepherd was found stopped by a signal (see {@link ShepherdWatch}): the child
	 * is {@code STOPPING} until its exit, which its restart policy then follows.
	 * @return nothing while a stop is under way, else end the tree (first sight) or kill
	 * the shepherd (again)
	 */
	ShepherdWatch.Action shepherdStopped() {
		this.children.assertHeld();
		ChildProcess current = this.process;
		if (current == null || this.stop != null) {
			return ShepherdWatch.Action.LEFT_TO_THE_STOP;
		}
		this.state = ChildState.STOPPING;
		if (this.command.shepherdStoppedAgain()) {
			return ShepherdWatch.Action.KILL_SHEPHERD;
		}
		this.lastError = "its shepherd (pid " + current.pid() + ") was stopped by a signal; its tree was killed, since "
				+ "a stopped shepherd would not end it with the supervisor";
		logger.warn("Child '{}': {}", name(), this.lastError);
		return ShepherdWatch.Action.END_TREE;
	}

	private void emit(ChildEvent.Type type, @Nullable ExitStatus exit, @Nullable Duration spawnDuration,
			@Nullable String error, @Nullable StopOutcome outcome, @Nullable Duration restartDelay) {
		this.outbox.add(new ChildEvent(type, snapshot(this.clock.getAsLong()), exit, spawnDuration, error, outcome,
				restartDelay));
	}

}
