package dev.tether.sample.e2e;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample as shipped: its MCP servers are the jar started again (through
 * Spring Boot's launcher), one over stdio and one over streamable HTTP, and
 * {@code /tools} lists and calls their tools through Spring AI's client.
 */
class McpHostIT extends FaultScenarioSupport {

	@Test
	void thePackagedAppListsAndCallsAToolOfEachOfItsMcpServersAndKillMinus9EndsThem() throws Exception {
		int toolsPort;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			toolsPort = socket.getLocalPort();
		}
		List<String> properties = List.of("--supervisor.installation-id=" + this.installation,
				"--supervisor.state-directory=" + state(), "--supervisor.children.tools.port=" + toolsPort);
		try (SampleAppProcess app = SampleAppProcess.startedAsShipped(properties, log("mcp-host"))) {
			assertThat(app.json("/tools").findValuesAsString("name")).containsExactlyInAnyOrder("now", "echo");
			assertThat(app.post("/tools/echo", "{\"text\": \"from the jar\"}").get("result").asString())
				.contains("echo: from the jar");
			long clock = app.child("clock").get("pid").asLong();
			assertThat(app.post("/tools/now", "{}").get("result").asString()).contains("(pid " + clock + ")");
			assertThat(app.child("tools").get("details").get("mcp").get("session").asString()).isEqualTo("initialized");
			// Per MCP server its shepherd and its JVM, and the greeter's two, once the
			// greeter runs.
			await().atMost(Duration.ofSeconds(60)).until(() -> ours().size() == 6);
			app.kill9();
			await("every supervised process gone").atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> ours().isEmpty());
		}
	}

}
