package dev.tether.sample.e2e;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.tether.supervisor.testsupport.Listen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample run from the application context its build generated ahead of time
 * ({@code spring-boot:process-aot}, then {@code -Dspring.aot.enabled=true}), the step
 * before a native image: its children start, the endpoint and health answer, Spring AI's
 * client lists the tools of its MCP servers, and a SIGTERM stops every child. One start
 * of the app, to keep the suite's time.
 */
class AheadOfTimeIT extends FaultScenarioSupport {

	@Test
	void theSampleProcessedAheadOfTimeSupervisesItsChildren() throws Exception {
		List<String> properties = List.of("--supervisor.installation-id=" + this.installation,
				"--supervisor.state-directory=" + state(), "--supervisor.children.tools.port=" + Listen.unusedPort());
		try (SampleAppProcess app = SampleAppProcess.startedAheadOfTime(properties, log("aot"))) {
			assertThat(app.output()).contains("Starting AOT-processed SampleApplication");
			await("every child RUNNING").atMost(Duration.ofSeconds(60)).until(() -> app.childrenIn("RUNNING") == 3);
			assertThat(app.children()).extracting((child) -> child.get("name").asString())
				.containsExactlyInAnyOrder("greeter", "clock", "tools");
			assertThat(app.json("/actuator/health").get("status").asString()).isEqualTo("UP");
			assertThat(app.json("/tools").findValuesAsString("name")).containsExactlyInAnyOrder("now", "echo");
			app.terminate();
			assertThat(app.awaitExit(Duration.ofSeconds(60))).as("the app exits on SIGTERM").isTrue();
		}
		await("every supervised process gone").atMost(Duration.ofSeconds(30)).until(() -> ours().isEmpty());
	}

}
