package dev.tether.sample;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.tether.supervisor.testsupport.NoLeakedChildrenExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class SampleApplicationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void isolate(DynamicPropertyRegistry registry) throws Exception {
		String state = Files.createTempDirectory("tether-sample-test").toString();
		int toolsPort;
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			toolsPort = socket.getLocalPort();
		}
		registry.add("supervisor.state-directory", () -> state);
		registry.add("supervisor.installation-id",
				() -> NoLeakedChildrenExtension.TEST_INSTALLATION_PREFIX + "sample-" + UUID.randomUUID());
		registry.add("supervisor.children.tools.port", () -> toolsPort);
	}

	private JsonNode children() throws Exception {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/children")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private static String state(JsonNode children, String name) {
		for (JsonNode child : children.get("children")) {
			if (child.get("name").asString().equals(name)) {
				return child.get("state").asString();
			}
		}
		return "absent";
	}

	@Test
	void bothChildrenRunThroughTheEndpoint() throws Exception {
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
			JsonNode children = children();
			return state(children, "greeter").equals("RUNNING") && state(children, "tools").equals("RUNNING");
		});
		JsonNode children = children();
		assertThat(children.get("parentDeathSignal").asString()).isEqualTo("launcher");
		assertThat(children.get("reconciliation").isNull()).isFalse();
	}

}
