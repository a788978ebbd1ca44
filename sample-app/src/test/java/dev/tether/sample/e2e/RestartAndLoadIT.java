package dev.tether.sample.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenarios 4, 5 and 10: a child killed from outside again and again, a crash loop, and
 * 200 children at once.
 */
class RestartAndLoadIT extends FaultScenarioSupport {

	@Test
	void childKilledTenTimesIsRestartedEachTimeWithGrowingBackoff() throws Exception {
		Path config = config("killed", """
				victim:
				  command: ["sleep", "600"]
				  restart: always
				  max-restarts: 20
				  restart-window: 10m
				  backoff:
				    initial: 50ms
				    multiplier: 1.5
				    max: 2s
				    jitter: 0
				""");
		try (SampleAppProcess app = SampleAppProcess.started(config, log("killed"))) {
			List<Long> restartedAt = new ArrayList<>();
			for (int kill = 1; kill <= 10; kill++) {
				await().atMost(Duration.ofSeconds(10)).until(() -> app.state("victim").equals("RUNNING"));
				long pid = app.child("victim").get("pid").asLong();
				long killedAt = System.nanoTime();
				ProcessHandle.of(pid).orElseThrow().destroyForcibly();
				int expected = kill;
				await().atMost(Duration.ofSeconds(10))
					.pollInterval(Duration.ofMillis(5))
					.until(() -> app.child("victim").get("restarts").asInt() == expected);
				restartedAt.add(System.nanoTime() - killedAt);
			}
			JsonNode victim = app.child("victim");
			assertThat(victim.get("restarts").asInt()).isEqualTo(10);
			assertThat(victim.get("lastExit").get("signal").asInt()).isEqualTo(9);
			// Backoff grows: 50 ms * 1.5^9 = 1.9 s before the tenth restart, against 50
			// ms before the first.
			assertThat(restartedAt.get(9)).isGreaterThan(restartedAt.get(0) + Duration.ofMillis(1000).toNanos());
			JsonNode restarts = app.json("/actuator/metrics/supervisor.child.restarts?tag=child:victim");
			assertThat(restarts.get("measurements").get(0).get("value").asDouble()).isEqualTo(10.0);
		}
	}

	@Test
	void crashLoopFailsTurnsHealthDownAndCostsNoCpuWhileFailed() throws Exception {
		Path config = config("crash", """
				crasher:
				  command: ["sh", "-c", "exit 3"]
				  max-restarts: 3
				  backoff:
				    initial: 50ms
				steady:
				  command: ["sleep", "600"]
				""");
		try (SampleAppProcess app = SampleAppProcess.started(config, log("crash"))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> app.state("crasher").equals("FAILED"));
			assertThat(app.status("/actuator/health")).isEqualTo(503);
			JsonNode component = app.json("/actuator/health/supervisor/crasher");
			assertThat(component.get("status").asString()).isEqualTo("DOWN");
			assertThat(component.get("details").get("lastError").asString()).contains("restarted 3 times");
			assertThat(app.state("steady")).isEqualTo("RUNNING");
			// Why this window and these threads: measured once FAILED, without HTTP
			// polling during it, over the supervisor's own threads only; a freshly booted
			// JVM compiles and collects, and that is not the loop.
			long before = app.supervisorCpuTicks();
			long windowStart = System.nanoTime();
			await("no process of the crasher started for 3 s").during(Duration.ofSeconds(3))
				.atMost(Duration.ofSeconds(20))
				.until(() -> oursNamed("crasher").isEmpty());
			double seconds = (System.nanoTime() - windowStart) / 1e9;
			double cpuShare = (app.supervisorCpuTicks() - before) / 100.0 / seconds;
			assertThat(cpuShare).as("CPU share of one core used by the supervisor's threads while FAILED")
				.isLessThan(0.10);
			assertThat(app.state("crasher")).isEqualTo("FAILED");
			assertThat(app.child("crasher").get("restarts").asInt()).isEqualTo(3);
		}
	}

	@Test
	void twoHundredChildrenRunWithoutAThreadEachAndLeaveNothingBehind() throws Exception {
		StringBuilder children = new StringBuilder();
		for (int i = 0; i < 200; i++) {
			children.append("c").append(i).append(":\n  command: [\"sleep\", \"600\"]\n");
		}
		int idleThreads;
		try (SampleAppProcess idle = SampleAppProcess
			.started(config("load-idle", children.toString(), "defaults:\n  autostart: false"), log("load-idle"))) {
			idleThreads = idle.threads();
		}
		try (SampleAppProcess app = SampleAppProcess.started(config("load", children.toString()), log("load"))) {
			await().atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(500))
				.until(() -> app.childrenIn("RUNNING") == 200);
			// Why 400: each child is its command and the shepherd it runs under, which
			// forks it a moment after it is RUNNING itself.
			await().atMost(Duration.ofSeconds(30)).until(() -> ours().size() == 400);
			assertThat(app.threads()).as("threads with 200 children vs none started").isLessThan(idleThreads + 20);
			app.terminate();
			assertThat(app.awaitExit(Duration.ofSeconds(60))).isTrue();
		}
	}

}
