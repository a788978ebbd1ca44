package dev.tether.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.boot.test.NoChildLeftRunning;
import dev.tether.supervisor.boot.test.SupervisedChildren;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample as configured, over HTTP, with its real children: the greeter and the two
 * MCP servers, which Spring AI's client talks to over real sessions. The test context has
 * a state directory and installation of its own, so it runs next to a started sample
 * without touching it; only the tools port, which the machine shares, is chosen here.
 */
// Why the level: the test classpath's logback-test.xml logs at WARN; the application
// itself logs INFO.
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "logging.level.tether.child=info")
@NoChildLeftRunning
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void freeToolsPort(DynamicPropertyRegistry registry) {
		FreeToolsPort.register(registry);
	}

	@Test
	void everyChildRunsAndTheEndpointShowsThem(SupervisedChildren children) throws Exception {
		long greeter = children.awaitState("greeter", ChildState.RUNNING).pid();
		long clock = children.awaitState("clock", ChildState.RUNNING).pid();
		long tools = children.awaitState("tools", ChildState.RUNNING).pid();
		JsonNode body = children();
		assertThat(body.get("installationId").asString()).matches("tether-sample-test-[0-9a-f]{8}");
		assertThat(body.get("parentDeathMechanism").asString()).isEqualTo("launcher");
		assertThat(body.get("parentDeathSignal").asString()).isEqualTo("launcher");
		assertThat(body.get("reconciliation").isNull()).isFalse();
		assertThat(child(body, "greeter").get("pid").asLong()).isEqualTo(greeter);
		assertThat(child(body, "clock").get("pid").asLong()).isEqualTo(clock);
		assertThat(child(body, "tools").get("pid").asLong()).isEqualTo(tools);
	}

	@Test
	void theReadmesExampleHasEveryFieldOfARealAnswer(SupervisedChildren children) throws Exception {
		// Why a restart: the example shows a last exit, so that its fields are
		// documented.
		long before = children.awaitState("greeter", ChildState.RUNNING).pid();
		assertThat(act("greeter", "restart").statusCode()).isEqualTo(200);
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.until(() -> children.awaitState("greeter", ChildState.RUNNING).pid() != before);
		children.awaitState("clock", ChildState.RUNNING);
		children.awaitState("tools", ChildState.RUNNING);
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.until(() -> child(children(), "tools").path("details").path("mcp").path("session").asString(""),
					"initialized"::equals);
		JsonNode readme = this.json.readTree(ReadmeExample.childrenEndpoint(Path.of("..", "README.md")));
		assertThat(ReadmeExample.fieldPaths(readme)).as("fields of the README's /actuator/children example")
			.containsExactlyInAnyOrderElementsOf(ReadmeExample.fieldPaths(children()));
	}

	@Test
	void toolsListsAndCallsAToolOfEachSupervisedMcpServer(SupervisedChildren children) throws Exception {
		long clock = children.awaitState("clock", ChildState.RUNNING).pid();
		children.awaitState("tools", ChildState.RUNNING);
		HttpResponse<String> list = this.http.send(HttpRequest.newBuilder(tools("")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(list.statusCode()).isEqualTo(200);
		assertThat(this.json.readTree(list.body()).findValuesAsString("name")).containsExactlyInAnyOrder("now", "echo");
		JsonNode echo = callTool("echo", "{\"text\": \"hello\"}");
		assertThat(echo.get("result").asString()).contains("echo: hello");
		// Why the pid: the answer comes from the process Tether supervises, over its
		// stdin and stdout.
		JsonNode now = callTool("now", "{}");
		assertThat(now.get("result").asString()).contains("(pid " + clock + ")");
		HttpResponse<String> unknown = this.http.send(HttpRequest.newBuilder(tools("/nope"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{}"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(unknown.statusCode()).isEqualTo(404);
	}

	@Test
	void restartThroughTheEndpointGivesANewProcess(SupervisedChildren children) throws Exception {
		long before = children.awaitState("greeter", ChildState.RUNNING).pid();
		assertThat(act("greeter", "restart").statusCode()).isEqualTo(200);
		assertThat(children.awaitState("greeter", ChildState.RUNNING).pid()).isNotEqualTo(before);
	}

	@Test
	void theChildrensLinesReachTheConsoleAndTheirTail(SupervisedChildren children, CapturedOutput console)
			throws Exception {
		children.awaitState("greeter", ChildState.RUNNING);
		// Why the greeting: the agent says it every 5 s, so it is seen even if the
		// context started before this test.
		String greeting = "greeter: Hello from a supervised agent";
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> console.getAll().contains(greeting));
		assertThat(console.getAll().lines().filter((line) -> line.contains(greeting)))
			.allSatisfy((line) -> assertThat(line).contains("INFO").contains("child.greeter"));
		HttpResponse<String> tail = this.http.send(HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/actuator/childlog/greeter?lines=100"))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(tail.statusCode()).isEqualTo(200);
		assertThat(tail.body()).contains(greeting);
	}

	private JsonNode children() throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(endpoint("")).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private HttpResponse<String> act(String child, String action) throws Exception {
		return this.http.send(HttpRequest.newBuilder(endpoint("/" + child))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"action\": \"" + action + "\"}"))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private JsonNode callTool(String name, String arguments) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(tools("/" + name))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(arguments))
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return this.json.readTree(response.body());
	}

	private URI tools(String path) {
		return URI.create("http://localhost:" + this.port + "/tools" + path);
	}

	private URI endpoint(String path) {
		return URI.create("http://localhost:" + this.port + "/actuator/children" + path);
	}

	private static JsonNode child(JsonNode body, String name) {
		for (JsonNode child : body.get("children")) {
			if (child.get("name").asString().equals(name)) {
				return child;
			}
		}
		throw new AssertionError("no child '" + name + "' in " + body);
	}

}
