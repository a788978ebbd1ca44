package dev.tether.supervisor.boot.actuate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.boot.RunningApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a child's tree uses, in a running application: the {@code resources} object of
 * {@code /actuator/children}, its meters, and its limits and OOM score set from the
 * properties.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=children,metrics",
				"supervisor.children.tree.command=sh,-c,sleep 600 & sleep 600 & wait",
				"supervisor.children.tree.limits.open-files=64:128", "supervisor.defaults.oom-score-adjust=500",
				"supervisor.children.tree.max-memory=1GB" })
@EnabledOnOs(OS.LINUX)
@DirtiesContext
class ChildResourcesApplicationTests extends RunningApplication {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@Test
	void theEndpointShowsWhatTheTreeUsesAndTheCommandHasItsLimitsAndScore() throws Exception {
		JsonNode child = await().atMost(DEADLINE)
			.until(() -> getJson("/actuator/children/tree"),
					(node) -> node.get("resources").get("processes").asInt() == 3
							&& !node.get("resources").get("descriptors").isNull());
		JsonNode resources = child.get("resources");
		assertThat(resources.get("memoryBytes").asLong()).isPositive();
		assertThat(resources.get("cpuSeconds").asDouble()).isNotNegative();
		assertThat(resources.get("descriptors").asInt()).isPositive();
		assertThat(resources.get("maxMemoryRestarts").asLong()).isZero();
		long pid = child.get("pid").asLong();
		assertThat(Files.readString(Path.of("/proc/" + pid + "/oom_score_adj")).trim()).isEqualTo("500");
		assertThat(Files.readAllLines(Path.of("/proc/" + pid + "/limits")))
			.anyMatch((line) -> line.matches("Max open files\\s+64\\s+128\\s+files\\s*"));
	}

	@Test
	void theTreeHasMetersTaggedWithTheChild() throws Exception {
		await().atMost(DEADLINE).untilAsserted(() -> {
			assertThat(value("supervisor.child.processes")).isEqualTo(3.0);
			assertThat(value("supervisor.child.memory")).isPositive();
			assertThat(value("supervisor.child.descriptors")).isPositive();
		});
		assertThat(value("supervisor.child.cpu")).isNotNegative();
		assertThat(value("supervisor.child.memory.restarts")).isZero();
		assertThat(getJson("/actuator/metrics/supervisor.child.cpu").get("baseUnit").asString()).isEqualTo("seconds");
	}

	private double value(String meter) throws Exception {
		// Why parsed from text: a gauge without a value (the command not forked yet) is
		// written as "NaN".
		JsonNode value = getJson("/actuator/metrics/" + meter + "?tag=child:tree").get("measurements")
			.get(0)
			.get("value");
		return Double.parseDouble(value.asString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
