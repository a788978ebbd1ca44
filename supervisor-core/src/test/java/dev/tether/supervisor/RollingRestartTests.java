package dev.tether.supervisor;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.tether.supervisor.testsupport.ChildSpecs;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.RequestLoop;
import dev.tether.supervisor.testsupport.ServedScript;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code restart-mode: rolling} with real processes on a real socket: the new process
 * starts on the held socket while the old one serves, the old one stops once the new one
 * is ready, and a new one that fails leaves the old one serving.
 */
@EnabledOnOs(OS.LINUX)
class RollingRestartTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	@Test
	void theOldProcessServesUntilTheNewOneIsReadyAndNoRequestIsRefused() throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = rolling("rolled", port, "1");
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("rolled");
			awaitServing(test, "rolled");
			try (RequestLoop client = RequestLoop.start(port, Duration.ofMillis(10))) {
				for (int i = 0; i < 5; i++) {
					long old = await().atMost(DEADLINE)
						.until(() -> running(test, "rolled"), (pid) -> pid != 0 && client.lastServer() == pid);
					ChildSnapshot starting = test.supervisor().restart("rolled");
					assertThat(starting.state()).isEqualTo(ChildState.STARTING);
					assertThat(starting.pid()).isNotEqualTo(old);
					assertThat(LiveProcesses.isAlive(old)).as("the old process serves while the new one starts")
						.isTrue();
					int answered = client.answered();
					await().atMost(DEADLINE).until(() -> client.answered() > answered + 3);
					assertThat(client.lastServer()).as("answers come from the old process until the new one is ready")
						.isEqualTo(old);
					await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(old));
					await().atMost(DEADLINE).until(() -> client.lastServer() != old && client.lastServer() != 0);
				}
				assertEveryRequestAnswered(client);
				System.out.printf("rolling: %d answered, slowest %d ms%n", client.answered(),
						client.slowest().toMillis());
				assertThat(test.supervisor().snapshot("rolled").orElseThrow().lastError()).isNull();
			}
		}
	}

	@Test
	void aFailedLivenessProbeRestartsRollingTooAndNoRequestIsRefused() throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = rolling("sick", port, "0.5").toBuilder()
			.livenessHttpGet("/health")
			.livenessPeriod(Duration.ofMillis(100))
			.livenessFailureThreshold(1)
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("sick");
			awaitServing(test, "sick");
			try (RequestLoop client = RequestLoop.start(port, Duration.ofMillis(10))) {
				long old = await().atMost(DEADLINE)
					.until(() -> running(test, "sick"), (pid) -> pid != 0 && client.lastServer() == pid);
				Files.createFile(this.temp.resolve("unhealthy-" + old));
				ChildSnapshot replacing = await().atMost(DEADLINE)
					.until(() -> test.supervisor().snapshot("sick").orElseThrow(),
							(child) -> child.pid() != null && child.pid() != old);
				assertThat(replacing.state()).isEqualTo(ChildState.STARTING);
				assertThat(replacing.lastError()).contains("liveness");
				assertThat(LiveProcesses.isAlive(old)).as("the old process serves while the new one starts").isTrue();
				await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(old));
				await().atMost(DEADLINE).until(() -> running(test, "sick") == replacing.pid());
				assertEveryRequestAnswered(client);
			}
		}
	}

	@Test
	void aStartupDelayIsTheNewProcesssReadinessAndTheOldOneServesUntilItHasPassed() throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = rolling("delayed", port, "0").toBuilder()
			.readinessLogLine(null)
			.startupDelay(Duration.ofSeconds(1))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("delayed");
			awaitServing(test, "delayed");
			try (RequestLoop client = RequestLoop.start(port, Duration.ofMillis(10))) {
				long old = await().atMost(DEADLINE)
					.until(() -> running(test, "delayed"), (pid) -> pid != 0 && client.lastServer() == pid);
				long restarted = System.nanoTime();
				long next = test.supervisor().restart("delayed").pid();
				await().atMost(DEADLINE).until(() -> running(test, "delayed") == next);
				assertThat(Duration.ofNanos(System.nanoTime() - restarted))
					.as("a held socket accepts at once, but the new process is ready only after the delay")
					.isGreaterThanOrEqualTo(Duration.ofSeconds(1));
				await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(old));
				assertEveryRequestAnswered(client);
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "refuse-to-start", "hang-before-ready" })
	void aNewProcessThatFailsItsReadinessIsStoppedAndTheOldOneGoesOnServing(String failure) throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = rolling("kept", port, "0").toBuilder().startupTimeout(Duration.ofSeconds(1)).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("kept");
			awaitServing(test, "kept");
			try (RequestLoop client = RequestLoop.start(port, Duration.ofMillis(10))) {
				long old = await().atMost(DEADLINE)
					.until(() -> running(test, "kept"), (pid) -> pid != 0 && client.lastServer() == pid);
				Files.createFile(this.temp.resolve(failure));
				// Why: the old process's own lines must not make the new one ready.
				Files.createFile(this.temp.resolve("say-serving-again"));
				long failed = test.supervisor().restart("kept").pid();
				ChildSnapshot kept = await().atMost(DEADLINE)
					.until(() -> test.supervisor().snapshot("kept").orElseThrow(), (child) -> child.lastError() != null
							&& child.lastError().contains("goes on serving") && child.state() == ChildState.RUNNING);
				assertThat(kept.pid()).isEqualTo(old);
				assertThat(kept.lastError()).startsWith("the new process (pid " + failed + ") ")
					.endsWith("; pid " + old + " goes on serving");
				await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(failed));
				int answered = client.answered();
				await().atMost(DEADLINE).until(() -> client.answered() > answered + 5);
				assertThat(client.lastServer()).isEqualTo(old);
				assertEveryRequestAnswered(client);
			}
		}
	}

	@Test
	void aNewProcessThatCannotBeSpawnedLeavesTheOldOneServingAndTheNextRestartRolls() throws Exception {
		int port = Listen.unusedPort();
		Path work = Files.createDirectories(this.temp.resolve("work"));
		ChildSpec spec = rolling("unspawned", port, "0").toBuilder().workingDirectory(work).build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("unspawned");
			long old = await().atMost(DEADLINE).until(() -> running(test, "unspawned"), (pid) -> pid != 0);
			Files.delete(work);
			ChildSnapshot kept = test.supervisor().restart("unspawned");
			assertThat(kept.state()).isEqualTo(ChildState.RUNNING);
			assertThat(kept.pid()).isEqualTo(old);
			assertThat(kept.lastError()).isEqualTo("the new process could not be started: working directory " + work
					+ " does not exist; pid " + old + " goes on serving");
			Files.createDirectories(work);
			long next = test.supervisor().restart("unspawned").pid();
			assertThat(next).as("the next restart rolls").isNotEqualTo(old);
			await().atMost(DEADLINE).until(() -> running(test, "unspawned") == next);
			await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(old));
		}
	}

	@Test
	void anOldProcessThatTakesTheChildBackIsStillHeardByItsWatchdog() throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = rolling("watched", port, "0").toBuilder()
			.readinessLogLine(null)
			.readinessNotify(true)
			.livenessWatchdog(Duration.ofSeconds(1))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("watched");
			long old = await().atMost(DEADLINE).until(() -> running(test, "watched"), (pid) -> pid != 0);
			Files.createFile(this.temp.resolve("refuse-to-start"));
			test.supervisor().restart("watched");
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("watched").orElseThrow().lastError(),
						(error) -> error != null && error.endsWith("pid " + old + " goes on serving"));
			// Why the exits counted: a watchdog that no longer heard the old process
			// would
			// restart it, and each new process, refused, would hand it back again.
			int exits = test.events("watched", ChildEvent.Type.EXITED).size();
			await().during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(10))
				.until(() -> running(test, "watched") == old
						&& test.events("watched", ChildEvent.Type.EXITED).size() == exits);
		}
	}

	@Test
	void aRemoveDuringARollingRestartEndsBothProcessesBeforeTheSocketCloses() throws Exception {
		int port = Listen.unusedPort();
		ChildSpec spec = rolling("removed", port, "0");
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().start("removed");
			long old = await().atMost(DEADLINE).until(() -> running(test, "removed"), (pid) -> pid != 0);
			Files.createFile(this.temp.resolve("hang-before-ready"));
			long starting = await().atMost(DEADLINE)
				.until(() -> test.supervisor().restart("removed").pid(), (pid) -> pid != null);
			assertThat(test.supervisor().remove("removed")).isEqualTo(StopOutcome.EXITED);
			assertThat(LiveProcesses.isAlive(old)).isFalse();
			await().atMost(DEADLINE).until(() -> !LiveProcesses.isAlive(starting));
		}
		try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			assertThat(free.getLocalPort()).isEqualTo(port);
		}
	}

	private ChildSpec rolling(String name, int port, String readyAfter) throws IOException {
		return ChildSpecs.restartedForever(name, ServedScript.command(this.temp), Duration.ofMillis(20))
			.toBuilder()
			.port(port)
			.workingDirectory(this.temp)
			.environment(Map.of("READY_AFTER", readyAfter))
			.readinessLogLine("^serving$")
			.socketActivation(new SocketActivation(true, "127.0.0.1", null, 3))
			.restartMode(RestartMode.ROLLING)
			.build();
	}

	/** Stops the client and checks that it was never refused nor failed. */
	private static void assertEveryRequestAnswered(RequestLoop client) throws InterruptedException {
		client.close();
		assertThat(client.refused()).isZero();
		assertThat(client.failures()).isEmpty();
	}

	/**
	 * Waits until the child runs, so that the clients started next never meet a port that
	 * nothing listens on yet.
	 */
	private static void awaitServing(TestSupervisor test, String name) {
		await().atMost(DEADLINE).until(() -> running(test, name) != 0);
	}

	/** The pid of the child's process while it is RUNNING, else 0. */
	private static long running(TestSupervisor test, String name) {
		ChildSnapshot child = test.supervisor().snapshot(name).orElseThrow();
		return (child.state() == ChildState.RUNNING && child.pid() != null) ? child.pid() : 0;
	}

}
