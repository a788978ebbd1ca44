package dev.tether.supervisor.admin;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import de.codecentric.boot.admin.server.config.EnableAdminServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Spring Boot Admin server with this jar on its class path, over HTTP: it serves
 * the console's script, style and route, and its proxy reaches an instance's
 * {@code childlog}. The instance is the server itself, with an endpoint of the same shape
 * as the starter's {@code childlog} (one operation, selected by a child's name).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
		"management.endpoints.web.exposure.include=health,childlog", "spring.boot.admin.monitor.default-timeout=5s" })
class ConsoleServedTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Test
	void theServerServesTheExtensionAndListsItInItsPage() throws Exception {
		HttpResponse<String> script = get("/extensions/tether/tether.js", "*/*");
		assertThat(script.statusCode()).isEqualTo(200);
		assertThat(script.body()).contains("SBA.use(").contains("'instances/tether-children'");
		HttpResponse<String> style = get("/extensions/tether/tether.css", "*/*");
		assertThat(style.statusCode()).isEqualTo(200);
		assertThat(style.body()).contains(".tether-state--failed");
		HttpResponse<String> page = get("/", "text/html");
		assertThat(page.statusCode()).isEqualTo(200);
		assertThat(page.body()).contains("tether/tether.js").contains("tether/tether.css");
	}

	@Test
	void theFleetViewsRouteIsTheServersPage() throws Exception {
		HttpResponse<String> fleet = get("/tether", "text/html");
		assertThat(fleet.statusCode()).isEqualTo(200);
		assertThat(fleet.body()).contains("tether/tether.js");
	}

	@Test
	void theProxyReachesChildLogThroughItsTemplatedLink() throws Exception {
		String base = "http://127.0.0.1:" + this.port;
		String registration = """
				{"name": "self", "managementUrl": "%1$s/actuator", "healthUrl": "%1$s/actuator/health",
				 "serviceUrl": "%1$s/"}""".formatted(base);
		HttpResponse<String> registered = this.http.send(HttpRequest.newBuilder(URI.create(base + "/instances"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(registration))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(registered.statusCode()).isEqualTo(201);
		String id = registered.body().replaceAll(".*\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.until(() -> get("/instances/" + id, "application/json").body().contains("\"childlog\""));
		HttpResponse<String> tail = get("/instances/" + id + "/actuator/childlog/greeter?lines=5", "text/plain");
		assertThat(tail.statusCode()).isEqualTo(200);
		assertThat(tail.body()).isEqualTo("the last 5 lines of greeter\n");
	}

	private HttpResponse<String> get(String path, String accept) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Accept", accept)
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableAdminServer
	static class AdminServer {

		@Bean
		ChildLogShaped childLog() {
			return new ChildLogShaped();
		}

	}

	@Endpoint(id = "childlog")
	static class ChildLogShaped {

		@ReadOperation(produces = "text/plain")
		String tail(@Selector String name, int lines) {
			return "the last " + lines + " lines of " + name + "\n";
		}

	}

}
