package dev.tether.supervisor.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A child's lines in Boot's JSON structured console logging (Logstash format): one JSON
 * event per line, under the child's logger, with its name and stream as fields and its
 * stream's marker as a tag.
 */
@SpringBootTest(
		properties = { "logging.structured.format.console=logstash", "logging.config=classpath:structured-logback.xml",
				// Why four backslashes: the properties format takes one pair, Java the
				// other.
				"supervisor.children.jsonchild.command=sh,-c,echo hello as json; echo trouble as json >&2; "
						+ "printf 'forged as json\\\\r\\\\033[2Jx\\\\n'; exec sleep 600",
				"supervisor.children.jsonchild.log.logger=true" })
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class StructuredLoggingTests {

	@TempDir
	static Path state;

	private final JsonMapper json = JsonMapper.builder().build();

	@DynamicPropertySource
	static void stateDirectory(DynamicPropertyRegistry registry) {
		registry.add("supervisor.state-directory", () -> state.toString());
		registry.add("supervisor.installation-id", () -> TestRun.installationId("structured"));
	}

	@Test
	void eachLineIsOneJsonEventNamingTheChildAndItsStream(CapturedOutput console) {
		await().atMost(Duration.ofSeconds(20))
			.until(() -> console.getOut().contains("hello as json") && console.getOut().contains("trouble as json"));
		JsonNode stdout = event(console, "hello as json");
		assertThat(stdout.get("logger_name").asString()).isEqualTo("tether.child.jsonchild");
		assertThat(stdout.get("level").asString()).isEqualTo("INFO");
		assertThat(stdout.get("tether.child").asString()).isEqualTo("jsonchild");
		assertThat(stdout.get("tether.stream").asString()).isEqualTo("stdout");
		assertThat(tags(stdout)).containsExactly("STDOUT");
		JsonNode stderr = event(console, "trouble as json");
		assertThat(stderr.get("level").asString()).isEqualTo("WARN");
		assertThat(stderr.get("tether.stream").asString()).isEqualTo("stderr");
		assertThat(tags(stderr)).containsExactly("STDERR");
	}

	@Test
	void controlCharactersStayEscapedInTheEvent(CapturedOutput console) {
		await().atMost(Duration.ofSeconds(20)).until(() -> console.getOut().contains("forged as json"));
		String line = console.getOut().lines().filter((l) -> l.contains("forged as json")).findFirst().orElseThrow();
		assertThat(line).doesNotContain("\r", "\u001B");
		assertThat(this.json.readTree(line).get("message").asString()).isEqualTo("forged as json\\u000D\\u001B[2Jx");
	}

	private JsonNode event(CapturedOutput console, String message) {
		List<JsonNode> events = console.getOut()
			.lines()
			.filter((line) -> line.contains(message))
			.map(this.json::readTree)
			.toList();
		assertThat(events).as("events of %s in %s", message, console.getOut()).hasSize(1);
		assertThat(events.get(0).get("message").asString()).isEqualTo(message);
		return events.get(0);
	}

	private static List<String> tags(JsonNode event) {
		return StreamSupport.stream(event.get("tags").spliterator(), false).map(JsonNode::asString).toList();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

	}

}
