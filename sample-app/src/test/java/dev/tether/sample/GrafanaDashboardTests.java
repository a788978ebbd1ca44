package dev.tether.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.boot.test.NoChildLeftRunning;
import dev.tether.supervisor.boot.test.SupervisedChildren;
import dev.tether.supervisor.testsupport.Listen;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every metric that {@code docs/grafana/tether.json} queries is in the sample's
 * Prometheus scrape, so that a renamed meter breaks the build rather than the dashboard.
 * The greeter is killed first: the exit and restart counters appear at the first exit. A
 * child whose port nobody opens is added for the probe failures: its readiness fails at
 * each tick.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@NoChildLeftRunning
class GrafanaDashboardTests {

	private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "tether.json");

	private static final Pattern METRIC = Pattern.compile("\\bsupervisor_[a-z_]+\\b");

	private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", Pattern.MULTILINE);

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void freeToolsPort(DynamicPropertyRegistry registry) {
		FreeToolsPort.register(registry);
	}

	@Test
	void everyMetricTheDashboardQueriesIsScraped(SupervisedChildren children) throws Exception {
		Set<String> queried = queriedMetrics(JsonMapper.builder().build().readTree(DASHBOARD.toFile()));
		assertThat(queried).contains("supervisor_children", "supervisor_child_exits_total",
				"supervisor_child_restarts_total", "supervisor_child_probe_failures_total",
				"supervisor_reap_tick_seconds_sum");
		long greeter = children.awaitState("greeter", ChildState.RUNNING).pid();
		ProcessHandle.of(greeter).ifPresent(ProcessHandle::destroyForcibly);
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.until(() -> children.awaitState("greeter", ChildState.RUNNING).pid() != greeter);
		children.supervisor()
			.add(ChildSpec.builder("unready", List.of("sleep", "600")).port(Listen.unusedPort()).build());
		try {
			Set<String> missing = new TreeSet<>();
			Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
				missing.clear();
				missing.addAll(queried);
				missing.removeAll(scraped());
				return missing.isEmpty();
			});
			assertThat(missing).isEmpty();
		}
		finally {
			children.supervisor().remove("unready");
		}
	}

	private static Set<String> queriedMetrics(JsonNode dashboard) {
		Set<String> names = new TreeSet<>();
		for (JsonNode node : dashboard.findValues("expr")) {
			Matcher matcher = METRIC.matcher(node.asString());
			while (matcher.find()) {
				names.add(matcher.group());
			}
		}
		for (JsonNode node : dashboard.findValues("definition")) {
			Matcher matcher = METRIC.matcher(node.asString());
			while (matcher.find()) {
				names.add(matcher.group());
			}
		}
		return names;
	}

	private Set<String> scraped() throws Exception {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/actuator/prometheus")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		Set<String> names = new TreeSet<>();
		Matcher matcher = SAMPLE.matcher(response.body());
		while (matcher.find()) {
			names.add(matcher.group(1));
		}
		return names;
	}

}
