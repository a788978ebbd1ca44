package dev.tether.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.HttpHealth;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TestSupervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readiness and liveness probes against real HTTP servers: a failing health path restarts
 * its child after the threshold, through the stop ladder and counted by the breaker; a
 * probe that hangs times out without holding up another child's probes or the tick;
 * {@code readiness.http-get} holds a child in {@code STARTING} until it answers;
 * listeners hear of each failed probe, before the events it leads to.
 */
@EnabledOnOs(OS.LINUX)
class ProbeTests {

	private static final Duration DEADLINE = Duration.ofSeconds(30);

	@TempDir
	Path temp;

	@Test
	void aServerWhoseHealthPathStartsFailingIsRestartedAfterTheThreshold() throws Exception {
		int port = Listen.unusedPort();
		Path failing = this.temp.resolve("failing");
		ChildSpec spec = ChildSpec.builder("api", HttpHealth.command(port, failing))
			.port(port)
			.readinessHttpGet("/ready")
			.livenessHttpGet("/health")
			.livenessPeriod(Duration.ofMillis(200))
			.livenessFailureThreshold(3)
			.backoffInitial(Duration.ofMillis(100))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().startAutostart();
			ChildSnapshot healthy = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("api").orElseThrow(),
						(child) -> child.liveness() != null && child.liveness().passed());
			assertThat(healthy.readiness().detail()).isEqualTo("HTTP 200");
			assertThat(healthy.liveness().detail()).isEqualTo("HTTP 200");
			Files.createFile(failing);
			ChildEvent restarting = await().atMost(DEADLINE)
				.until(() -> test.events("api", ChildEvent.Type.RESTARTING), (events) -> !events.isEmpty())
				.get(0);
			assertThat(restarting.error()).isEqualTo(
					"failed its liveness probe (GET /health on port " + port + ") 3 times in a row; last: HTTP 500");
			ExitStatus exit = test.events("api", ChildEvent.Type.EXITED).get(0).exit();
			assertThat(Integer.valueOf(15).equals(exit.signal()) || Integer.valueOf(128 + 15).equals(exit.code()))
				.as("stopped through the ladder by its stop signal (a JVM exits 143 on SIGTERM), not SIGKILL: " + exit)
				.isTrue();
			assertThat(test.supervisor().snapshot("api").orElseThrow().lastError()).isEqualTo(restarting.error());
			Files.delete(failing);
			ChildSnapshot restarted = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("api").orElseThrow(),
						(child) -> child.state() == ChildState.RUNNING && child.pid() != null
								&& !child.pid().equals(healthy.pid()));
			assertThat(restarted.restarts()).isEqualTo(1);
		}
	}

	@Test
	void aHungProbeTimesOutWithoutHoldingUpAnotherChildsProbesOrTheTick() throws Exception {
		int hungPort = Listen.unusedPort();
		int healthyPort = Listen.unusedPort();
		ChildSpec hung = ChildSpec.builder("hung", HttpHealth.hanging(hungPort))
			.port(hungPort)
			.livenessHttpGet("/health")
			.livenessPeriod(Duration.ofMillis(200))
			.livenessTimeout(Duration.ofSeconds(2))
			.livenessFailureThreshold(2)
			.build();
		ChildSpec healthy = ChildSpec.builder("healthy", HttpHealth.command(healthyPort, this.temp.resolve("never")))
			.port(healthyPort)
			.livenessHttpGet("/health")
			.livenessPeriod(Duration.ofMillis(100))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(hung, healthy))) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("hung").orElseThrow().liveness() == null
						&& test.supervisor().snapshot("hung").orElseThrow().state() == ChildState.RUNNING);
			// While the hung probes wait out their timeouts, the healthy child's probes
			// keep coming back.
			Set<Instant> healthyResults = new HashSet<>();
			long slowestTickNanos = 0;
			while (test.events("hung", ChildEvent.Type.RESTARTING).isEmpty()) {
				long before = System.nanoTime();
				test.supervisor().tick();
				slowestTickNanos = Math.max(slowestTickNanos, System.nanoTime() - before);
				ProbeResult result = test.supervisor().snapshot("healthy").orElseThrow().liveness();
				if (result != null) {
					healthyResults.add(result.at());
				}
				await().pollDelay(Duration.ofMillis(50)).until(() -> true);
				assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(DEADLINE);
			}
			assertThat(test.events("hung", ChildEvent.Type.RESTARTING).get(0).error())
				.isEqualTo("failed its liveness probe (GET /health on port " + hungPort
						+ ") 2 times in a row; last: no answer within PT2S");
			assertThat(healthyResults).as("healthy results while the hung probes waited 2 x 2 s").hasSizeGreaterThan(5);
			assertThat(Duration.ofNanos(slowestTickNanos)).as("no tick waited for a probe")
				.isLessThan(Duration.ofSeconds(1));
		}
	}

	@Test
	void readinessHttpGetHoldsTheChildStartingUntilItAnswers() throws Exception {
		int port = Listen.unusedPort();
		Path failing = this.temp.resolve("not-ready");
		Files.createFile(failing);
		ChildSpec spec = ChildSpec.builder("web", HttpHealth.command(port, failing))
			.port(port)
			.readinessHttpGet("/ready")
			.readinessPeriod(Duration.ofMillis(100))
			.build();
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), List.of(spec))) {
			test.supervisor().startAutostart();
			ChildSnapshot starting = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("web").orElseThrow(),
						(child) -> child.readiness() != null && child.readiness().detail().equals("HTTP 500"));
			assertThat(starting.state()).isEqualTo(ChildState.STARTING);
			assertThat(starting.readiness().failures()).isPositive();
			Files.delete(failing);
			ChildSnapshot ready = await().atMost(DEADLINE)
				.until(() -> test.supervisor().snapshot("web").orElseThrow(),
						(child) -> child.state() == ChildState.RUNNING);
			assertThat(ready.readiness().passed()).isTrue();
			assertThat(ready.readiness().detail()).isEqualTo("HTTP 200");
		}
	}

	@Test
	void listenersHearEachFailedLivenessProbeBeforeTheRestartItLeadsTo() throws Exception {
		int port = Listen.unusedPort();
		Path failing = Files.createFile(this.temp.resolve("failing"));
		ChildSpec spec = ChildSpec.builder("api", HttpHealth.command(port, failing))
			.port(port)
			.livenessHttpGet("/health")
			.livenessPeriod(Duration.ofMillis(200))
			.livenessFailureThreshold(2)
			.restart(RestartPolicy.NEVER)
			.build();
		List<Object> heard = new CopyOnWriteArrayList<>();
		SupervisorListener recorder = new SupervisorListener() {

			@Override
			public void onEvent(ChildEvent event) {
				heard.add(event.type());
			}

			@Override
			public void onProbeFailed(ProbeFailure failure) {
				if (failure.probe() == ProbeFailure.Probe.LIVENESS) {
					assertThat(failure.child()).isEqualTo("api");
					assertThat(failure.kind()).isEqualTo(ChildKind.AGENT);
					heard.add(failure.result().detail() + " " + failure.result().failures());
				}
			}

		};
		try (TestSupervisor test = new TestSupervisor(this.temp.resolve("state"), TestRun.installationId("supervisor"),
				OrphanPolicy.STOP, List.of(spec), (builder) -> builder.listener(recorder))) {
			test.supervisor().startAutostart();
			await().atMost(DEADLINE).until(() -> heard.contains(ChildEvent.Type.EXITED));
			assertThat(heard).containsExactly(ChildEvent.Type.STARTED, "HTTP 500 1", "HTTP 500 2",
					ChildEvent.Type.EXITED);
		}
	}

}
