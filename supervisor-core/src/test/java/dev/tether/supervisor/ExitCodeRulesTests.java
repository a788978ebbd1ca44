package dev.tether.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@code success-exit-codes} and {@code restart-prevent-exit-codes}, with real children
 * that exit with the code or die by the signal the rules name.
 */
@EnabledOnOs(OS.LINUX)
class ExitCodeRulesTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private static final Backoff QUICK = new Backoff(Duration.ofMillis(50), Duration.ofMillis(50), 1.0, 0.0);

	@TempDir
	Path temp;

	@Test
	void aSuccessExitCodeIsCleanSoOnFailureDoesNotRestartIt() throws Exception {
		ChildSpec spec = ChildSpec.builder("done", List.of("sh", "-c", "exit 3"))
			.restart(RestartPolicy.ON_FAILURE)
			.backoff(QUICK)
			.successExitCodes(new ExitCodes(Set.of(3), Set.of()))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("done");
			ChildSnapshot exited = awaitState(test, "done", ChildState.EXITED);
			assertThat(exited.lastExit().code()).isEqualTo(3);
			assertThat(test.events("done", ChildEvent.Type.RESTARTING)).isEmpty();
			assertThat(exited.restarts()).isZero();
		}
	}

	@Test
	void anExitCodeNotNamedIsStillAFailureAndRestarts() throws Exception {
		ChildSpec spec = ChildSpec.builder("other", List.of("sh", "-c", "exit 4"))
			.restart(RestartPolicy.ON_FAILURE)
			.backoff(QUICK)
			.maxRestarts(1)
			.restartWindow(Duration.ofMinutes(1))
			.successExitCodes(new ExitCodes(Set.of(3), Set.of()))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("other");
			awaitState(test, "other", ChildState.FAILED);
			assertThat(test.events("other", ChildEvent.Type.RESTARTING)).hasSize(1);
		}
	}

	@Test
	void aSignalNamedAsSuccessIsCleanToo() throws Exception {
		int term = Signals.number("SIGTERM");
		ChildSpec spec = ChildSpec.builder("termed", List.of("sh", "-c", "kill -TERM $$"))
			.restart(RestartPolicy.ON_FAILURE)
			.backoff(QUICK)
			.successExitCodes(new ExitCodes(Set.of(), Set.of(term)))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("termed");
			ChildSnapshot exited = awaitState(test, "termed", ChildState.EXITED);
			assertThat(exited.lastExit().signal()).isEqualTo(term);
			assertThat(test.events("termed", ChildEvent.Type.RESTARTING)).isEmpty();
		}
	}

	@Test
	void aRestartPreventingExitEndsFailedWhateverThePolicyAndSaysWhy() throws Exception {
		ChildSpec spec = ChildSpec.builder("misconfigured", List.of("sh", "-c", "exit 78"))
			.restart(RestartPolicy.ALWAYS)
			.backoff(QUICK)
			.restartPreventExitCodes(new ExitCodes(Set.of(78), Set.of()))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("misconfigured");
			ChildSnapshot failed = awaitState(test, "misconfigured", ChildState.FAILED);
			assertThat(failed.lastError()).contains("exit code 78").contains("restart-prevent-exit-codes");
			assertThat(failed.restarts()).isZero();
			assertThat(test.events("misconfigured", ChildEvent.Type.RESTARTING)).isEmpty();
			assertThat(test.events("misconfigured", ChildEvent.Type.FAILED)).hasSize(1);
			// An operator's start clears it, as any FAILED.
			test.supervisor().start("misconfigured");
			await().atMost(DEADLINE).until(() -> test.events("misconfigured", ChildEvent.Type.FAILED).size() == 2);
		}
	}

	@Test
	void aStopByTheSupervisorIsNeverTakenForARestartPreventingExit() throws Exception {
		int term = Signals.number("TERM");
		ChildSpec spec = ChildSpec.builder("stopped", List.of("sleep", "600"))
			.restart(RestartPolicy.ALWAYS)
			.restartPreventExitCodes(new ExitCodes(Set.of(), Set.of(term)))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp, List.of(spec))) {
			test.supervisor().start("stopped");
			awaitState(test, "stopped", ChildState.RUNNING);
			assertThat(test.supervisor().stop("stopped")).isEqualTo(StopOutcome.EXITED);
			assertThat(test.supervisor().snapshot("stopped").orElseThrow().state()).isEqualTo(ChildState.STOPPED);
			assertThat(test.events("stopped", ChildEvent.Type.FAILED)).isEmpty();
		}
	}

	@Test
	void codesAndSignalsOutsideTheirRangesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ExitCodes(Set.of(256), Set.of()))
			.withMessageContaining("256");
		assertThatIllegalArgumentException().isThrownBy(() -> new ExitCodes(Set.of(), Set.of(0)))
			.withMessageContaining("signal");
	}

	private static ChildSnapshot awaitState(TestSupervisor test, String name, ChildState state) {
		return await().atMost(DEADLINE)
			.until(() -> test.supervisor().snapshot(name).orElseThrow(), (child) -> child.state() == state);
	}

}
