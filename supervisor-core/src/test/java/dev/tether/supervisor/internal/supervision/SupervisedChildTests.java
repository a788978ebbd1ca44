package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildSpecBuilder;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.RestartPolicy;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.ports.PortGuard.PortClaim;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.stop.StopTarget;
import dev.tether.supervisor.testsupport.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * One child's state machine on its own: no process is spawned or signalled (the pid it is
 * given does not exist), and time moves only when the test moves it.
 */
class SupervisedChildTests {

	// Why a pid that cannot exist: the state machine only records it; nothing here may
	// signal a real process.
	private static final long PID = 4_000_000_123L;

	private final ManualClock clock = new ManualClock();

	private final List<ChildEvent> events = new ArrayList<>();

	private final ChildTable table = new ChildTable();

	private final EventOutbox outbox = new EventOutbox(List.of(this.events::add), this.table);

	@Test
	void aCrashRestartsAfterItsBackoffAndTheBreakerEndsInFailedNamingWhy() {
		SupervisedChild child = child(ChildSpec.builder("worker", List.of("true"))
			.restart(RestartPolicy.ON_FAILURE)
			.backoffInitial(Duration.ofSeconds(1))
			.backoffJitter(0)
			.maxRestarts(1)
			.restartWindow(Duration.ofMinutes(1)));
		synchronized (this.table) {
			start(child);
			child.exited(PID, ExitStatus.exited(3), this.clock.getAsLong(), 0.5);
			assertThat(child.state()).isEqualTo(ChildState.BACKOFF);
			assertThat(child.process()).isNull();
			this.clock.advance(Duration.ofMillis(999));
			assertThat(child.restartIfDue(this.clock.getAsLong())).isFalse();
			this.clock.advance(Duration.ofMillis(1));
			assertThat(child.restartIfDue(this.clock.getAsLong())).isTrue();
			assertThat(child.state()).isEqualTo(ChildState.STARTING);
			start(child);
			child.exited(PID, ExitStatus.signalled(9), this.clock.getAsLong(), 0.5);
			ChildSnapshot failed = child.snapshot(this.clock.getAsLong());
			assertThat(failed.state()).isEqualTo(ChildState.FAILED);
			assertThat(failed.lastError()).contains("restarted 1 times within PT1M").contains("signal 9");
		}
		this.outbox.dispatch();
		assertThat(this.events).extracting(ChildEvent::type)
			.containsExactly(ChildEvent.Type.STARTED, ChildEvent.Type.EXITED, ChildEvent.Type.RESTARTING,
					ChildEvent.Type.STARTED, ChildEvent.Type.EXITED, ChildEvent.Type.FAILED);
	}

	@Test
	void aCleanExitIsNotRestartedOnFailureOnlyAndAnExitOfAnotherPidIsIgnored() {
		SupervisedChild child = child(ChildSpec.builder("job", List.of("true")).restart(RestartPolicy.ON_FAILURE));
		synchronized (this.table) {
			start(child);
			child.exited(PID + 1, ExitStatus.exited(1), this.clock.getAsLong(), 0.5);
			assertThat(child.state()).isEqualTo(ChildState.RUNNING);
			child.exited(PID, ExitStatus.exited(0), this.clock.getAsLong(), 0.5);
			assertThat(child.state()).isEqualTo(ChildState.EXITED);
			assertThat(child.snapshot(this.clock.getAsLong()).lastExit().code()).isZero();
		}
	}

	@Test
	void aPortHeldByAnotherProcessFailsTheStartWithItsReasonAndAFreePortLetsItGoAhead() {
		SupervisedChild held = child(ChildSpec.builder("web", List.of("true")).port(8080));
		SupervisedChild free = child(ChildSpec.builder("api", List.of("true")).port(8081));
		synchronized (this.table) {
			held.requestStart();
			assertThat(held.launch().claim()).isTrue();
			assertThat(held.launch().stillWanted()).isTrue();
			assertThat(
					held.portFree(new PortClaim.HeldByOther("port 8080 is held by pid 42 (not ours)"), (identity) -> {
						throw new AssertionError("nothing of ours holds the port");
					}, this.clock.getAsLong()))
				.isFalse();
			assertThat(held.state()).isEqualTo(ChildState.FAILED);
			assertThat(held.snapshot(this.clock.getAsLong()).lastError())
				.isEqualTo("port 8080 is held by pid 42 (not ours)");
			free.requestStart();
			assertThat(free.launch().claim()).isTrue();
			assertThat(free.portFree(new PortClaim.Free(), (identity) -> {
				throw new AssertionError("the port is free");
			}, this.clock.getAsLong())).isTrue();
		}
	}

	@Test
	void aListenerNoProcessCanBeFoundForFailsTheStart() {
		SupervisedChild child = child(ChildSpec.builder("web", List.of("true")).port(8080));
		synchronized (this.table) {
			child.requestStart();
			launchSeeingAnUnidentifiedListener(child);
			assertThat(child.state()).isEqualTo(ChildState.FAILED);
			assertThat(child.snapshot(this.clock.getAsLong()).lastError()).contains("cannot be identified");
		}
	}

	@Test
	void aStopSendsItsSignalThenSigkillAfterTheTimeoutAndEndsWithTheReapedExit() {
		SupervisedChild child = child(
				ChildSpec.builder("stubborn", List.of("true")).stopSignal(15).stopTimeout(Duration.ofSeconds(2)));
		RecordingTarget target = new RecordingTarget();
		synchronized (this.table) {
			start(child);
			CompletableFuture<StopOutcome> outcome = child.beginStop(target, this.clock.getAsLong());
			assertThat(child.state()).isEqualTo(ChildState.STOPPING);
			assertThat(target.signals).containsExactly(15, 18);
			this.clock.advance(Duration.ofMillis(1999));
			child.advanceStop(this.clock.getAsLong());
			assertThat(target.signals).containsExactly(15, 18);
			this.clock.advance(Duration.ofMillis(1));
			child.advanceStop(this.clock.getAsLong());
			assertThat(target.signals).containsExactly(15, 18, 9);
			assertThat(outcome).as("our own child's stop ends with its reaped exit").isNotDone();
			child.exited(PID, ExitStatus.signalled(9), this.clock.getAsLong(), 0.5);
			assertThat(outcome).isCompletedWithValue(StopOutcome.KILLED);
			assertThat(child.state()).isEqualTo(ChildState.STOPPED);
			assertThat(child.process()).isNull();
		}
	}

	@Test
	void aFailedCheckStopsThroughTheLadderAndItsEndCountsAsAFailureNamingWhy() {
		SupervisedChild child = child(ChildSpec.builder("leaky", List.of("true"))
			.restart(RestartPolicy.ON_FAILURE)
			.stopSignal(15)
			.backoffJitter(0));
		RecordingTarget target = new RecordingTarget();
		synchronized (this.table) {
			start(child);
			ChildProcess process = child.process();
			child.checkFailed(process, "failed its liveness probe 3 times", target, this.clock.getAsLong());
			assertThat(child.state()).isEqualTo(ChildState.STOPPING);
			assertThat(target.signals).containsExactly(15, 18);
			child.checkFailed(process, "again", target, this.clock.getAsLong());
			assertThat(target.signals).as("one ladder at a time").containsExactly(15, 18);
			child.exited(PID, ExitStatus.signalled(15), this.clock.getAsLong(), 0.5);
			ChildSnapshot restarting = child.snapshot(this.clock.getAsLong());
			assertThat(restarting.state()).as("a clean end after a failed check is still a failure")
				.isEqualTo(ChildState.BACKOFF);
			assertThat(restarting.lastError()).isEqualTo("failed its liveness probe 3 times");
		}
		this.outbox.dispatch();
		assertThat(this.events).extracting(ChildEvent::type)
			.containsExactly(ChildEvent.Type.STARTED, ChildEvent.Type.EXITED, ChildEvent.Type.RESTARTING);
		assertThat(this.events.get(2).error()).isEqualTo("failed its liveness probe 3 times");
	}

	@Test
	void anOperatorsStopDuringAFailedChecksStopEndsStopped() {
		SupervisedChild child = child(ChildSpec.builder("leaky", List.of("true")).stopSignal(15));
		RecordingTarget target = new RecordingTarget();
		synchronized (this.table) {
			start(child);
			child.checkFailed(child.process(), "too big", target, this.clock.getAsLong());
			CompletableFuture<StopOutcome> outcome = child.beginStop(target, this.clock.getAsLong());
			assertThat(target.signals).as("the ladder under way is kept").containsExactly(15, 18);
			child.exited(PID, ExitStatus.signalled(15), this.clock.getAsLong(), 0.5);
			assertThat(outcome).isCompletedWithValue(StopOutcome.EXITED);
			assertThat(child.state()).isEqualTo(ChildState.STOPPED);
		}
	}

	@Test
	void aStopWithoutAProcessEndsAtOnceAndCancelsTheWantedLaunch() {
		SupervisedChild child = child(ChildSpec.builder("idle", List.of("true")));
		synchronized (this.table) {
			child.requestStart();
			assertThat(child.beginStop(null, this.clock.getAsLong())).isCompletedWithValue(StopOutcome.NOT_RUNNING);
			assertThat(child.state()).isEqualTo(ChildState.STOPPED);
			assertThat(child.launch().claim()).isFalse();
		}
	}

	@Test
	void aTransitionOutsideTheSupervisorsLockIsRefused() {
		assumeThat(ChildTable.class.desiredAssertionStatus()).as("assertions are enabled (-ea)").isTrue();
		SupervisedChild child = child(ChildSpec.builder("unlocked", List.of("true")));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(child::requestStart)
			.withMessageContaining("lock is not held");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(child::process);
	}

	/** A stop target that records the signals it is asked to send, and sends none. */
	private static final class RecordingTarget implements StopTarget {

		private final List<Integer> signals = new ArrayList<>();

		private boolean ended;

		@Override
		public Verdict signal(int signal) {
			this.signals.add(signal);
			return Verdict.OURS;
		}

		@Override
		public boolean hasEnded() {
			return this.ended;
		}

	}

	/**
	 * Claims the child's wanted launch and finds a listener on its port with no process.
	 */
	private void launchSeeingAnUnidentifiedListener(SupervisedChild child) {
		assertThat(child.launch().claim()).isTrue();
		assertThat(child.launch().stillWanted()).isTrue();
		PortClaim unidentified = new PortClaim.Unidentified(
				"port " + child.spec().port() + " is held by a process that cannot be identified");
		assertThat(child.portFree(unidentified, (holder) -> {
			throw new AssertionError("nothing of ours is known to hold the port");
		}, this.clock.getAsLong())).isFalse();
	}

	private SupervisedChild child(ChildSpecBuilder spec) {
		SupervisedChild child = new SupervisedChild(spec.build(), this.outbox, this.clock, this.table);
		synchronized (this.table) {
			this.table.add(child, false);
		}
		return child;
	}

	/**
	 * Wants a launch, claims it and records a spawn of {@link #PID}, as the supervisor
	 * does under its lock.
	 */
	private void start(SupervisedChild child) {
		child.requestStart();
		if (child.state() != ChildState.STARTING) {
			throw new AssertionError("no launch wanted: " + child.state());
		}
		assertThat(child.launch().claim()).isTrue();
		assertThat(child.launch().stillWanted()).isTrue();
		child.launched(new SpawnedChild(PID, null, Duration.ofMillis(1), false, null), null, null, null, null,
				this.clock.getAsLong());
		assertThat(child.state()).isEqualTo(ChildState.RUNNING);
	}

}
