package dev.tether.supervisor.boot;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.testsupport.TestRun;

/**
 * A web application started by {@code @SpringBootTest(webEnvironment = RANDOM_PORT)} with
 * a state directory and an installation of its own, and HTTP calls to it.
 */
public abstract class RunningApplication {

	/** How long one call may take. */
	protected static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

	// Why static: the state directory is a property of the context, which is built before
	// any test instance.
	@TempDir
	protected static Path state;

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	protected int port;

	@DynamicPropertySource
	static void stateDirectory(DynamicPropertyRegistry registry) {
		registry.add("supervisor.state-directory", () -> state.toString());
		registry.add("supervisor.installation-id", () -> TestRun.installationId("starter"));
	}

	protected HttpResponse<String> get(String path) throws Exception {
		return this.http.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
	}

	protected HttpResponse<String> post(String path, String body) throws Exception {
		return this.http.send(request(path).header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	/** The body of a {@code GET}, parsed. */
	protected JsonNode getJson(String path) throws Exception {
		return readJson(get(path).body());
	}

	protected JsonNode readJson(String body) {
		return this.json.readTree(body);
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path)).timeout(CALL_TIMEOUT);
	}

}
