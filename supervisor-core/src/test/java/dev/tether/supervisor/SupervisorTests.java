package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@EnabledOnOs(OS.LINUX)
class SupervisorTests {

	@TempDir
	Path temp;

	private static ChildSpec.Builder child(String name, String... command) {
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
	void crashLoopBacksOffAndOpensTheBreakerAfterTheThirdRestart() throws Exception {
		ChildSpec spec = child("crasher", "sh", "-c", "exit 3").maxRestarts(3)
			.backoff(new ChildSpec.Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 0.2))
			.restartWindow(Duration.ofSeconds(30))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("crasher");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> test.supervisor().snapshot("crasher").orElseThrow().state() == ChildState.FAILED);
			ChildSnapshot failed = test.supervisor().snapshot("crasher").orElseThrow();
			assertThat(failed.restarts()).isEqualTo(3);
			assertThat(failed.lastError()).contains("restarted 3 times");
			assertThat(failed.lastExit().code()).isEqualTo(3);
			List<ChildEvent> restarting = test.events("crasher", ChildEvent.Type.RESTARTING);
			assertThat(restarting).hasSize(3);
			long[] delays = restarting.stream().mapToLong((e) -> e.restartDelay().toMillis()).toArray();
			// 100, 200, 400 ms, each within 20% jitter.
			assertThat(delays[0]).isBetween(80L, 120L);
			assertThat(delays[1]).isBetween(160L, 240L);
			assertThat(delays[2]).isBetween(320L, 480L);
			List<ChildEvent> starts = test.events("crasher", ChildEvent.Type.STARTED);
			assertThat(starts).hasSize(4);
			for (int i = 1; i < starts.size(); i++) {
				Duration gap = Duration.between(starts.get(i - 1).child().startedAt(), starts.get(i).child().startedAt());
				assertThat(gap).isGreaterThanOrEqualTo(Duration.ofMillis(delays[i - 1]));
			}
			// No busy loop: FAILED stays FAILED and nothing is spawned any more.
			await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(1))
				.until(() -> test.events("crasher", ChildEvent.Type.STARTED).size() == 4);
			assertThat(test.events("crasher", ChildEvent.Type.FAILED)).hasSize(1);
			// An operator start clears FAILED.
			assertThat(test.supervisor().start("crasher").state()).isIn(ChildState.RUNNING, ChildState.EXITED,
					ChildState.BACKOFF);
		}
	}

	@Test
	void childThatStaysUpPastStableAfterHasItsBackoffReset() throws Exception {
		Path marker = this.temp.resolve("crashed-once");
		ChildSpec spec = child("settles", "sh", "-c",
				"if [ -f " + marker + " ]; then exec sleep 600; else touch " + marker + "; exit 1; fi")
			.backoff(new ChildSpec.Backoff(Duration.ofMillis(200), Duration.ofSeconds(10), 4.0, 0.0))
			.stableAfter(Duration.ofMillis(300))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("settles");
			await().atMost(Duration.ofSeconds(5)).until(() -> test.events("settles", ChildEvent.Type.STARTED).size() == 2);
			long pid = test.supervisor().snapshot("settles").orElseThrow().pid();
			await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.isRunning(pid, "sleep"));
			// Past stable-after, a new crash backs off from the initial delay again, not initial * multiplier.
			java.time.Instant startedAt = test.supervisor().snapshot("settles").orElseThrow().startedAt();
			await().atMost(Duration.ofSeconds(2))
				.until(() -> Duration.between(startedAt, java.time.Instant.now()).toMillis() > 400);
			ProcessHandle.of(pid).orElseThrow().destroyForcibly();
			await().atMost(Duration.ofSeconds(5)).until(() -> test.events("settles", ChildEvent.Type.RESTARTING).size() == 2);
			List<ChildEvent> restarting = test.events("settles", ChildEvent.Type.RESTARTING);
			assertThat(restarting.get(0).restartDelay()).isEqualTo(Duration.ofMillis(200));
			assertThat(restarting.get(1).restartDelay()).isEqualTo(Duration.ofMillis(200));
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
			assertThat(LiveProcesses.isAlive(grandchildren.get(0))).isFalse();
			ChildSnapshot stopped = test.supervisor().snapshot("stubborn").orElseThrow();
			assertThat(stopped.state()).isEqualTo(ChildState.STOPPED);
			assertThat(stopped.pid()).isNull();
			assertThat(test.events("stubborn", ChildEvent.Type.STOPPED).get(0).stopOutcome()).isEqualTo(StopOutcome.KILLED);
		}
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
		TestSupervisor test = new TestSupervisor(this.temp,
				List.of(child("a", "sleep", "600").build(), child("b", "sleep", "600").kind(ChildKind.MCP).build()));
		test.supervisor().startAutostart();
		long first = test.supervisor().snapshot("a").orElseThrow().pid();
		long second = test.supervisor().restart("a").pid();
		assertThat(second).isNotEqualTo(first);
		long other = test.supervisor().snapshot("b").orElseThrow().pid();
		test.close();
		assertThat(LiveProcesses.isAlive(second)).isFalse();
		assertThat(LiveProcesses.isAlive(other)).isFalse();
		assertThat(test.supervisor().snapshots()).allMatch((s) -> s.state() == ChildState.STOPPED);
	}

	@Test
	void daemonThatLeftItsGroupAndSessionIsStoppedAtClose() throws Exception {
		TestSupervisor test = new TestSupervisor(this.temp, List.of(
				child("forker", "sh", "-c", "setsid sleep 600 </dev/null >/dev/null 2>&1 & exit 0").restart(RestartPolicy.NEVER).build()));
		long forker = test.supervisor().start("forker").pid();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> test.supervisor().snapshot("forker").orElseThrow().state() == ChildState.EXITED);
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + test.installationId();
		await().atMost(Duration.ofSeconds(5)).until(() -> LiveProcesses.withEnvironmentEntry(marker).size() == 1);
		long daemon = LiveProcesses.withEnvironmentEntry(marker).get(0);
		assertThat(LiveProcesses.stat(daemon).orElseThrow().session()).isNotEqualTo(forker);
		test.close();
		assertThat(LiveProcesses.isAlive(daemon)).isFalse();
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
