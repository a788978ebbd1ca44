package dev.tether.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.Fifo;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A FIFO at a child's log path fails that child's start, named, and nothing else waits on
 * it: the other children keep being restarted and the supervisor keeps answering.
 */
@EnabledOnOs(OS.LINUX)
class SupervisorLogSafetyTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path state;

	@Test
	void aChildThatReplacesItsLogWithAFifoFailsItsNextStartAndNothingElseWaits() throws Exception {
		Path log = this.state.resolve("logs").resolve("trickster.log");
		ChildSpec trickster = restarting("trickster", "rm -f '" + log + "'; mkfifo '" + log + "'; exit 1");
		ChildSpec steady = restarting("steady", "exit 1");
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(trickster, steady))) {
			test.supervisor().startAutostart();
			// Why a restart may still succeed first: one that comes before the first
			// run's pipes are read to their end finds its file still open.
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("trickster").orElseThrow().state() == ChildState.FAILED);
			assertThat(Files.isRegularFile(log)).isFalse();
			assertThat(test.supervisor().snapshot("trickster").orElseThrow().lastError())
				.isEqualTo("cannot open the log file of child 'trickster': " + log
						+ " is not a regular file (a FIFO, a socket or a device), which is never opened as a log");
			int restarts = test.supervisor().snapshot("steady").orElseThrow().restarts();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("steady").orElseThrow().restarts() > restarts);
		}
	}

	@Test
	void aFifoPlantedAtACustomLogFileFailsTheStartAtOnce() throws Exception {
		Path log = Files.createDirectory(this.state.resolve("custom")).resolve("planted.log");
		Fifo.make(log);
		ChildSpec planted = ChildSpec.builder("planted", List.of("sh", "-c", "echo secret")).logFile(log).build();
		try (TestSupervisor test = new TestSupervisor(this.state, List.of(planted, restarting("steady", "exit 1")))) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("planted").orElseThrow().lastError() != null);
			assertThat(test.supervisor().snapshot("planted").orElseThrow().state()).isEqualTo(ChildState.FAILED);
			assertThat(test.supervisor().snapshot("planted").orElseThrow().lastError())
				.isEqualTo("cannot open the log file of child 'planted': " + log
						+ " is not a regular file (a FIFO, a socket or a device), which is never opened as a log");
			await().atMost(DEADLINE).until(() -> test.supervisor().snapshot("steady").orElseThrow().restarts() > 1);
		}
	}

	private static ChildSpec restarting(String name, String script) {
		return ChildSpec.builder(name, List.of("sh", "-c", script))
			.restart(RestartPolicy.ALWAYS)
			.backoffInitial(Duration.ofMillis(20))
			.backoffMax(Duration.ofMillis(50))
			.maxRestarts(1000)
			.restartWindow(Duration.ofSeconds(60))
			.build();
	}

}
