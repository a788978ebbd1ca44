package dev.tether.supervisor.boot.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.Fifo;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A child's output in a running application: its lines in the application's console, its
 * tail over {@code /actuator/childlog}, and its counts in the metrics.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=childlog,metrics",
				"supervisor.children.numbers.command=sh,-c,seq 1 50; exec sleep 600",
				"supervisor.children.chatty.command=sh,-c,echo hello from chatty; echo trouble >&2; exec sleep 600",
				"supervisor.children.chatty.log.logger=true", "supervisor.children.chatty.log.stderr-level=error",
				"supervisor.children.silent.command=sleep,600", "supervisor.children.silent.log.file-enabled=false",
				"supervisor.children.quiet.command=sleep,600", "supervisor.children.linked.command=true",
				"supervisor.children.linked.autostart=false", "supervisor.children.frozen.command=true",
				"supervisor.children.frozen.autostart=false", "logging.level.tether.child=info" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class ChildOutputApplicationTests {

	@TempDir
	static Path state;

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	Supervisor supervisor;

	@DynamicPropertySource
	static void stateDirectory(DynamicPropertyRegistry registry) {
		registry.add("supervisor.state-directory", () -> state.toString());
		registry.add("supervisor.installation-id", () -> TestRun.installationId("output"));
	}

	private HttpResponse<String> get(String path, String... headers) throws Exception {
		// Why a timeout: a request that would wait on a planted FIFO must fail the test,
		// not hang it.
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(20));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private void awaitLines(String child, int lines) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> get("/actuator/childlog/" + child + "?lines=" + lines).body().lines().count() == lines);
	}

	@Test
	void theTailIsTheLastLines() throws Exception {
		awaitLines("numbers", 50);
		HttpResponse<String> tail = get("/actuator/childlog/numbers?lines=3");
		assertThat(tail.statusCode()).isEqualTo(200);
		assertThat(tail.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/plain"));
		assertThat(tail.body()).isEqualTo("48\n49\n50\n");
	}

	@Test
	void theWholeFileAndARangeOfIt() throws Exception {
		awaitLines("numbers", 50);
		assertThat(get("/actuator/childlog/numbers").body()).startsWith("1\n2\n3\n").endsWith("49\n50\n");
		HttpResponse<String> range = get("/actuator/childlog/numbers", "Range", "bytes=0-5");
		assertThat(range.statusCode()).isEqualTo(206);
		assertThat(range.body()).isEqualTo("1\n2\n3\n");
	}

	@Test
	void unknownChildrenChildrenWithoutAFileAndChildrenThatWroteNothingAre404AndABadCountIs400() throws Exception {
		assertThat(get("/actuator/childlog/nobody?lines=3").statusCode()).isEqualTo(404);
		assertThat(get("/actuator/childlog/silent").statusCode()).isEqualTo(404);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.supervisor.snapshot("quiet")
				.map(ChildSnapshot::state)
				.orElse(null) == ChildState.RUNNING);
		assertThat(get("/actuator/childlog/quiet").statusCode()).isEqualTo(404);
		assertThat(get("/actuator/childlog/quiet?lines=3").statusCode()).isEqualTo(404);
		assertThat(state.resolve("logs").resolve("quiet.log")).doesNotExist();
		assertThat(get("/actuator/childlog/numbers?lines=0").statusCode()).isEqualTo(400);
		assertThat(get("/actuator/childlog/numbers?lines=10001").statusCode()).isEqualTo(400);
	}

	@Test
	void aLinkPlantedAtALogIsNeverFollowedWithOrWithoutRange() throws Exception {
		Path secret = Files.writeString(state.resolve("secret"), "the secret\n");
		Files.createSymbolicLink(Files.createDirectories(state.resolve("logs")).resolve("linked.log"), secret);
		assertRefused("/actuator/childlog/linked");
		assertRefused("/actuator/childlog/linked", "Range", "bytes=0-5");
		assertRefused("/actuator/childlog/linked?lines=3");
	}

	@Test
	void aFifoPlantedAtALogIsRefusedAtOnceWithOrWithoutRange() throws Exception {
		Fifo.make(Files.createDirectories(state.resolve("logs")).resolve("frozen.log"));
		assertRefused("/actuator/childlog/frozen");
		assertRefused("/actuator/childlog/frozen", "Range", "bytes=0-5");
		assertRefused("/actuator/childlog/frozen?lines=3");
	}

	private void assertRefused(String path, String... headers) throws Exception {
		HttpResponse<String> response = get(path, headers);
		assertThat(response.statusCode()).as(path).isEqualTo(500);
		assertThat(response.body()).doesNotContain("the secret");
	}

	@Test
	void linesReachTheApplicationsConsoleUnderTheChildsLogger(CapturedOutput console) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> console.getAll().contains("hello from chatty") && console.getAll().contains("trouble"));
		assertThat(console.getAll().lines().filter((line) -> line.contains("hello from chatty")))
			.allSatisfy((line) -> assertThat(line).contains("INFO").contains("tether.child.chatty"));
		assertThat(console.getAll().lines().filter((line) -> line.endsWith("trouble")))
			.allSatisfy((line) -> assertThat(line).contains("ERROR").contains("tether.child.chatty"));
		assertThat(console.getAll()).doesNotContain(" 50\n");
	}

	@Test
	void bytesAndLinesAreCountedPerChild() throws Exception {
		awaitLines("numbers", 50);
		JsonMapper json = JsonMapper.builder().build();
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			JsonNode lines = json
				.readTree(get("/actuator/metrics/supervisor.child.output.lines?tag=child:numbers").body());
			assertThat(lines.get("measurements").get(0).get("value").asDouble()).isEqualTo(50.0);
			JsonNode bytes = json
				.readTree(get("/actuator/metrics/supervisor.child.output.bytes?tag=child:numbers").body());
			assertThat(bytes.get("measurements").get(0).get("value").asDouble()).isEqualTo(141.0);
		});
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
