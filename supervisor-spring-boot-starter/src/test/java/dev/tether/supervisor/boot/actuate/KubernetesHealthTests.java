package dev.tether.supervisor.boot.actuate;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.RunningApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Boot's Kubernetes probes with Tether, configured as docs/actuator.md says:
 * {@code supervisor} in the readiness group and never in liveness. A non-critical child
 * that has failed leaves everything {@code UP}; a critical one takes readiness
 * {@code DOWN} (503) while liveness stays {@code UP}, so the pod is taken out of service,
 * not restarted.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoint.health.probes.enabled=true",
				"management.endpoint.health.group.readiness.include=readinessState,supervisor",
				"management.endpoint.health.show-details=always", "supervisor.tick-interval=50ms",
				"supervisor.children.helper.command=sh,-c,exit 3", "supervisor.children.helper.max-restarts=0",
				"supervisor.children.helper.critical=false", "supervisor.children.api.command=sh,-c,exit 3",
				"supervisor.children.api.max-restarts=0", "supervisor.children.api.autostart=false" })
@DirtiesContext
class KubernetesHealthTests extends RunningApplication {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@Autowired
	Supervisor supervisor;

	@Test
	void aFailedNonCriticalChildLeavesReadinessUpAndACriticalOneTakesItDownButNeverLiveness() throws Exception {
		await().atMost(DEADLINE)
			.until(() -> this.supervisor.snapshot("helper").orElseThrow().state() == ChildState.FAILED);
		JsonNode helper = readJson(get("/actuator/health/supervisor/helper").body());
		assertThat(helper.get("status").asString()).isEqualTo(SupervisorHealthContributor.DOWN_NON_CRITICAL);
		assertThat(status("/actuator/health/supervisor")).isEqualTo(200);
		assertThat(status("/actuator/health/readiness")).isEqualTo(200);
		assertThat(status("/actuator/health/liveness")).isEqualTo(200);
		this.supervisor.start("api");
		await().atMost(DEADLINE)
			.until(() -> this.supervisor.snapshot("api").orElseThrow().state() == ChildState.FAILED);
		assertThat(status("/actuator/health/supervisor")).isEqualTo(503);
		HttpResponse<String> readiness = get("/actuator/health/readiness");
		assertThat(readiness.statusCode()).isEqualTo(503);
		assertThat(readJson(readiness.body()).get("status").asString()).isEqualTo("DOWN");
		HttpResponse<String> liveness = get("/actuator/health/liveness");
		assertThat(liveness.statusCode()).isEqualTo(200);
		assertThat(readJson(liveness.body()).get("status").asString()).isEqualTo("UP");
	}

	private int status(String path) throws Exception {
		return get(path).statusCode();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
