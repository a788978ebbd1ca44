package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.ManualClock;
import dev.tether.supervisor.testsupport.ObservedRegistry;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class SupervisorTests {

	@TempDir
	Path temp;

	private static String installation() {
		return TestRun.installationId("supervisor");
	}

	/**
	 * The pid of the child's command once it is known (under a shepherd, a moment after
	 * the start).
	 */
	private static long runningPid(TestSupervisor test, String name) {
		return await().atMost(Duration.ofSeconds(10))
			.until(() -> test.supervisor().snapshot(name).orElseThrow().pid(), (pid) -> pid != null);
	}

	private static ChildSpecBuilder child(String name, String... command) {
		return ChildSpec.builder(name, List.of(command));
	}

	@Test
	void exitCodeIsReportedExactly() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(child("seven", "sh", "-c", "exit 7").restart(RestartPolicy.NEVER).build()))) {
			test.supervisor().start("seven");
			await().atMost(Duration.ofSeconds(5))
				.until(() -> test.supervisor().snapshot("seven").orElseThrow().state() == ChildState.EXITED);
			ExitStatus exit = test.supervisor().snapshot("seven").orElseThrow().lastExit();
			assertThat(exit.code()).isEqualTo(7);
			assertThat(exit.signal()).isNull();
			assertThat(test.events("seven", ChildEvent.Type.EXITED)).hasSize(1);
		}
	}

	@Test
	void deathBySignalIsReportedExactly() throws Exception {
		for (int signal : new int[] { 9, 15 }) {
			try (TestSupervisor test = new TestSupervisor(this.temp.resolve("s" + signal),
					List.of(child("victim", "sleep", "600").restart(RestartPolicy.NEVER).build()))) {
				long pid = test.supervisor().start("victim").pid();
				await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
				ProcessHandle handle = ProcessHandle.of(pid).orElseThrow();
				if (signal == 9) {
					handle.destroyForcibly();
				}
				else {
					handle.destroy();
				}
				await().atMost(Duration.ofSeconds(5))
					.until(() -> test.supervisor().snapshot("victim").orElseThrow().state() == ChildState.EXITED);
				ExitStatus exit = test.supervisor().snapshot("victim").orElseThrow().lastExit();
				assertThat(exit.signal()).isEqualTo(signal);
				assertThat(exit.code()).isNull();
				assertThat(exit.outcome()).isEqualTo("signal");
			}
		}
	}

	@Test
	void crashLoopWaitsOutEachBackoffAndOpensTheBreakerAfterTheThirdRestart() throws Exception {
		ManualClock clock = new ManualClock();
		ChildSpec spec = child("crasher", "sh", "-c", "exit 3").maxRestarts(3)
			.backoff(new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 0.2))
			.restartWindow(Duration.ofSeconds(30))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, installation(), OrphanPolicy.STOP, List.of(spec),
				(builder) -> builder.clock(clock))) {
			test.supervisor().start("crasher");
			for (int restart = 1; restart <= 3; restart++) {
				int expected = restart;
				await().atMost(Duration.ofSeconds(10))
					.until(() -> test.events("crasher", ChildEvent.Type.RESTARTING).size() == expected);
				Duration delay = test.events("crasher", ChildEvent.Type.RESTARTING).get(restart - 1).restartDelay();
				long base = 100L << (restart - 1);
				assertThat(delay.toMillis()).isBetween(base * 8 / 10, base * 12 / 10);
				// Nothing restarts while the clock has not passed the backoff, however
				// many ticks run.
				clock.advance(delay.minusMillis(1));
				await().during(Duration.ofMillis(200))
					.atMost(Duration.ofSeconds(5))
					.until(() -> test.events("crasher", ChildEvent.Type.STARTED).size() == expected);
				clock.advance(Duration.ofMillis(1));
				await().atMost(Duration.ofSeconds(10))
					.until(() -> test.events("crasher", ChildEvent.Type.STARTED).size() == expected + 1);
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("crasher", ChildEvent.Type.FAILED).size() == 1);
			ChildSnapshot failed = test.events("crasher", ChildEvent.Type.FAILED).get(0).child();
			assertThat(failed.state()).isEqualTo(ChildState.FAILED);
			assertThat(failed.restarts()).isEqualTo(3);
			assertThat(failed.lastError()).contains("restarted 3 times");
			assertThat(failed.lastExit().code()).isEqualTo(3);
			clock.advance(Duration.ofMinutes(5));
			await().during(Duration.ofMillis(200))
				.atMost(Duration.ofSeconds(5))
				.until(() -> test.events("crasher", ChildEvent.Type.STARTED).size() == 4);
		}
	}

	@Test
	void anOperatorStartClearsFailed() throws Exception {
		ChildSpec spec = child("crasher", "sh", "-c", "exit 3").restart(RestartPolicy.ON_FAILURE)
			.maxRestarts(0)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("crasher");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("crasher", ChildEvent.Type.FAILED).size() == 1);
			test.supervisor().start("crasher");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("crasher", ChildEvent.Type.STARTED).size() == 2);
		}
	}

	@Test
	void childThatStaysUpPastStableAfterHasItsBackoffReset() throws Exception {
		ManualClock clock = new ManualClock();
		Path marker = this.temp.resolve("crashed-once");
		ChildSpec spec = child("settles", "sh", "-c",
				"if [ -f " + marker + " ]; then exec sleep 600; else touch " + marker + "; exit 1; fi")
			.backoff(new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10), 4.0, 0.0))
			.stableAfter(Duration.ofSeconds(30))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), installation(), OrphanPolicy.STOP,
				List.of(spec), (builder) -> builder.clock(clock))) {
			test.supervisor().start("settles");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("settles", ChildEvent.Type.RESTARTING).size() == 1);
			clock.advance(Duration.ofMillis(200));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("settles", ChildEvent.Type.STARTED).size() == 2);
			long pid = runningPid(test, "settles");
			await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
			clock.advance(Duration.ofSeconds(30));
			test.supervisor().tick();
			ProcessHandle.of(pid).orElseThrow().destroyForcibly();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("settles", ChildEvent.Type.RESTARTING).size() == 2);
			List<ChildEvent> restarting = test.events("settles", ChildEvent.Type.RESTARTING);
			assertThat(restarting.get(0).restartDelay()).isEqualTo(Duration.ofMillis(200));
			// Past stable-after, a new crash backs off from the initial delay again, not
			// initial * multiplier.
			assertThat(restarting.get(1).restartDelay()).isEqualTo(Duration.ofMillis(200));
		}
	}

	@Test
	void childThatCrashesBeforeStableAfterBacksOffFurther() throws Exception {
		ManualClock clock = new ManualClock();
		ChildSpec spec = child("unstable", "sleep", "600")
			.backoff(new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10), 4.0, 0.0))
			.stableAfter(Duration.ofSeconds(30))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, installation(), OrphanPolicy.STOP, List.of(spec),
				(builder) -> builder.clock(clock))) {
			ProcessHandle.of(test.supervisor().start("unstable").pid()).orElseThrow().destroyForcibly();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("unstable", ChildEvent.Type.RESTARTING).size() == 1);
			clock.advance(Duration.ofMillis(200));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("unstable", ChildEvent.Type.STARTED).size() == 2);
			clock.advance(Duration.ofSeconds(29));
			test.supervisor().tick();
			ProcessHandle.of(runningPid(test, "unstable")).orElseThrow().destroyForcibly();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.events("unstable", ChildEvent.Type.RESTARTING).size() == 2);
			assertThat(test.events("unstable", ChildEvent.Type.RESTARTING).get(1).restartDelay())
				.isEqualTo(Duration.ofMillis(800));
		}
	}

	@Test
	void childThatIgnoresTermIsKilledWithItsGroupAfterTheStopTimeout() throws Exception {
		Path ready = this.temp.resolve("ready");
		ChildSpec spec = child("stubborn", "sh", "-c", "trap '' TERM; sleep 600 & touch " + ready + "; wait")
			.stopTimeout(Duration.ofSeconds(1))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			long pid = test.supervisor().start("stubborn").pid();
			await().atMost(Duration.ofSeconds(5)).until(() -> ready.toFile().exists());
			List<Long> grandchildren = ProcessHandle.of(pid).orElseThrow().children().map(ProcessHandle::pid).toList();
			assertThat(grandchildren).hasSize(1);
			long started = System.nanoTime();
			assertThat(test.supervisor().stop("stubborn")).isEqualTo(StopOutcome.KILLED);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(900),
					Duration.ofSeconds(4));
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(grandchildren.get(0)));
			ChildSnapshot stopped = test.supervisor().snapshot("stubborn").orElseThrow();
			assertThat(stopped.state()).isEqualTo(ChildState.STOPPED);
			assertThat(stopped.pid()).isNull();
			assertThat(test.events("stubborn", ChildEvent.Type.STOPPED).get(0).stopOutcome())
				.isEqualTo(StopOutcome.KILLED);
		}
	}

	@Test
	void childFrozenBySigstopStillGetsItsGracefulStop() throws Exception {
		// A default-action TERM ends even a stopped process; a TERM handler only runs
		// once the process continues.
		Path ready = this.temp.resolve("ready");
		ChildSpec spec = child("frozen", "sh", "-c",
				"trap 'exit 0' TERM; touch " + ready + "; while :; do sleep 1; done")
			.stopTimeout(Duration.ofSeconds(15))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			long pid = test.supervisor().start("frozen").pid();
			await().atMost(Duration.ofSeconds(10)).until(() -> ready.toFile().exists());
			new ProcessBuilder("kill", "-STOP", "--", "-" + pid).start().waitFor();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LiveProcesses.stat(pid).map((stat) -> stat.state() == 'T').orElse(false));
			long started = System.nanoTime();
			assertThat(test.supervisor().stop("frozen")).isEqualTo(StopOutcome.EXITED);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
			assertThat(test.supervisor().snapshot("frozen").orElseThrow().lastExit().code()).isZero();
		}
	}

	@Test
	void registryThatCannotBeSavedIsReportedOnceAndItsRecoveryToo() throws Exception {
		ObservedRegistry registry = new ObservedRegistry(FileChildRegistry.open(this.temp.resolve("registry")));
		try (TestSupervisor test = new TestSupervisor(this.temp, installation(), OrphanPolicy.STOP,
				List.of(child("a", "sleep", "600").build()), (builder) -> builder.registry(registry))) {
			registry.failSaves(true);
			test.supervisor().start("a");
			assertThat(test.supervisor().registryProblem()).hasValue("No space left on device");
			test.supervisor().tick();
			assertThat(test.supervisor().registryProblem()).isPresent();
			registry.failSaves(false);
			test.supervisor().tick();
			assertThat(test.supervisor().registryProblem()).isEmpty();
			assertThat(registry.load()).extracting(RegistryRow::name).containsExactly("a");
		}
	}

	@Test
	void childThatClearsItsEnvironmentIsStillStoppedAndRestarted() throws Exception {
		// Our own unreaped child is proven ours by the kernel, not by markers it may have
		// wiped.
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(child("bare", "sh", "-c", "exec env -i /bin/sleep 600").build()))) {
			long first = test.supervisor().start("bare").pid();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> LiveProcesses.isRunning(first, "sleep") && LiveProcesses.environ(first).isEmpty());
			long second = test.supervisor().restart("bare").pid();
			assertThat(second).isNotEqualTo(first);
			await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(first));
			await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.isRunning(second, "sleep"));
			assertThat(test.supervisor().stop("bare")).isEqualTo(StopOutcome.EXITED);
			ChildSnapshot stopped = test.supervisor().snapshot("bare").orElseThrow();
			assertThat(stopped.state()).isEqualTo(ChildState.STOPPED);
			assertThat(stopped.lastExit().signal()).isEqualTo(15);
		}
	}

	@Test
	void childThatClearsItsEnvironmentAndIgnoresTermIsKilledAtClose() throws Exception {
		Path ready = this.temp.resolve("ready");
		TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(child("hidden", "sh", "-c",
				"exec env -i /bin/sh -c 'trap \"\" TERM; /usr/bin/touch " + ready + "; while :; do /bin/sleep 1; done'")
			.stopTimeout(Duration.ofSeconds(1))
			.build()));
		long pid = test.supervisor().start("hidden").pid();
		await().atMost(Duration.ofSeconds(10)).until(() -> ready.toFile().exists());
		assertThat(LiveProcesses.environ(pid)).isEmpty();
		test.close();
		await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(pid));
		assertThat(test.events("hidden", ChildEvent.Type.STOPPED).get(0).stopOutcome()).isEqualTo(StopOutcome.KILLED);
	}

	@Test
	void childThatHonoursTermExitsWellBeforeTheTimeout() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(child("polite", "sleep", "600").stopTimeout(Duration.ofSeconds(10)).build()))) {
			long pid = test.supervisor().start("polite").pid();
			await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
			long started = System.nanoTime();
			assertThat(test.supervisor().stop("polite")).isEqualTo(StopOutcome.EXITED);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
			assertThat(test.supervisor().stop("polite")).isEqualTo(StopOutcome.NOT_RUNNING);
		}
	}

	@Test
	void restartGivesANewPidAndCloseLeavesNothingAlive() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(child("a", "sleep", "600").build(), child("b", "sleep", "600").kind(ChildKind.MCP).build()))) {
			test.supervisor().startAutostart();
			// Why wait: under a shepherd, the command's pid is known once the shepherd
			// has forked it.
			long first = await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("a").orElseThrow().pid(), Objects::nonNull);
			long second = test.supervisor().restart("a").pid();
			assertThat(second).isNotEqualTo(first);
			long other = await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("b").orElseThrow().pid(), Objects::nonNull);
			test.close();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !LiveProcesses.isAlive(second) && !LiveProcesses.isAlive(other));
			assertThat(test.supervisor().snapshots()).allMatch((s) -> s.state() == ChildState.STOPPED);
		}
	}

	@Test
	void daemonThatLeftItsGroupAndSessionIsStoppedAtClose() throws Exception {
		// The forker exits only once its daemon is in a session of its own, so the daemon
		// is not a group remnant.
		Path detached = this.temp.resolve("detached");
		TestSupervisor test = new TestSupervisor(this.temp.resolve("state"),
				List.of(child("forker", "sh", "-c",
						"setsid sh -c 'touch " + detached + "; exec sleep 600' </dev/null >/dev/null 2>&1 & "
								+ "while [ ! -f " + detached + " ]; do sleep 0.01; done; exit 0")
					.restart(RestartPolicy.NEVER)
					// Why: under a shepherd the daemon would end with the forker; this is
					// the stop at close without one.
					.containDescendants(false)
					.build()));
		long forker = test.supervisor().start("forker").pid();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> test.supervisor().snapshot("forker").orElseThrow().state() == ChildState.EXITED);
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + test.installationId();
		await().atMost(Duration.ofSeconds(10)).until(() -> LiveProcesses.withEnvironmentEntry(marker).size() == 1);
		long daemon = LiveProcesses.withEnvironmentEntry(marker).get(0);
		assertThat(LiveProcesses.stat(daemon).orElseThrow().session()).isNotEqualTo(forker);
		test.close();
		await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(daemon));
	}

	@Test
	void missingExecutableFailsTheChildWithItsNameAndOthersCarryOn() throws Exception {
		try (TestSupervisor test = new TestSupervisor(this.temp,
				List.of(child("broken", "no-such-tool-xyz").build(), child("fine", "sleep", "600").build()))) {
			test.supervisor().startAutostart();
			ChildSnapshot broken = test.supervisor().snapshot("broken").orElseThrow();
			assertThat(broken.state()).isEqualTo(ChildState.FAILED);
			assertThat(broken.lastError()).contains("no-such-tool-xyz");
			assertThat(test.supervisor().snapshot("fine").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
		}
	}

	@Test
	void invalidSpecsNameTheSetting() {
		assertThat(catchInvalid(() -> child("ok", " ").build()).setting()).isEqualTo("command");
		assertThat(catchInvalid(() -> child("bad name", "true").build()).setting()).isEqualTo("name");
		assertThat(catchInvalid(() -> child("ok", "true").stopTimeout(Duration.ofSeconds(-1)).build()).setting())
			.isEqualTo("stop-timeout");
		assertThat(catchInvalid(() -> child("ok", "true").restartWindow(Duration.ofSeconds(1)).build()).setting())
			.isEqualTo("restart-window");
	}

	private static InvalidChildSpecException catchInvalid(Runnable build) {
		try {
			build.run();
		}
		catch (InvalidChildSpecException ex) {
			return ex;
		}
		throw new AssertionError("expected an InvalidChildSpecException");
	}

}
