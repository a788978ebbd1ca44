package dev.tether.sample.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 6: bad configuration and a bad state directory fail startup with a message
 * naming what is wrong, and lose nothing.
 */
class BadInputIT extends FaultScenarioSupport {

	private String failsToStart(String name, String children) throws Exception {
		return failsToStart(config(name, children), name);
	}

	private String failsToStart(Path config, String name) throws Exception {
		try (SampleAppProcess app = SampleAppProcess.start(config, log(name))) {
			assertThat(app.awaitExit(Duration.ofSeconds(90))).as("the app should fail to start").isTrue();
			assertThat(app.process().exitValue()).isNotZero();
			return app.output();
		}
	}

	@Test
	void missingExecutable() throws Exception {
		assertThat(failsToStart("missing", "broken:\n  command: [\"no-such-tool-xyz\"]\n"))
			.contains("Property: supervisor.children.broken.command")
			.contains("no-such-tool-xyz");
	}

	@Test
	void nonExecutableFile() throws Exception {
		Path plain = Files.writeString(this.temp.resolve("plain.sh"), "#!/bin/sh\n");
		assertThat(failsToStart("plain", "broken:\n  command: [\"" + plain + "\"]\n"))
			.contains("Property: supervisor.children.broken.command")
			.contains("is not executable");
	}

	@Test
	void missingWorkingDirectory() throws Exception {
		assertThat(failsToStart("nodir",
				"broken:\n  command: [\"sleep\", \"1\"]\n  working-directory: " + this.temp.resolve("nowhere") + "\n"))
			.contains("Property: supervisor.children.broken.working-directory");
	}

	@Test
	void emptyCommand() throws Exception {
		assertThat(failsToStart("empty", "broken:\n  kind: agent\n"))
			.contains("Property: supervisor.children.broken.command");
	}

	@Test
	void unknownKind() throws Exception {
		assertThat(failsToStart("kind", "broken:\n  kind: robot\n  command: [\"sleep\", \"1\"]\n"))
			.contains("supervisor.children.broken.kind")
			.contains("robot");
	}

	@Test
	void negativeDurations() throws Exception {
		assertThat(failsToStart("negative", "broken:\n  command: [\"sleep\", \"1\"]\n  stop-timeout: -5s\n"))
			.contains("Property: supervisor.children.broken.stop-timeout");
	}

	@Test
	void misspelledSettings() throws Exception {
		assertThat(failsToStart("typos",
				"api:\n  command: [\"sleep\", \"600\"]\n  max-restart: 3\n  restat: never\n  mcp:\n    transprot: stdio\n"))
			.contains("Property: supervisor.children.api.max-restart\n")
			.contains("did you mean supervisor.children.api.max-restarts?")
			.contains("Property: supervisor.children.api.restat\n")
			.contains("did you mean supervisor.children.api.restart?")
			.contains("Property: supervisor.children.api.mcp.transprot\n")
			.contains("did you mean supervisor.children.api.mcp.transport?")
			.containsPattern("Origin: .*typos\\.yml\\] - \\d+:\\d+");
	}

	@ParameterizedTest
	@ValueSource(strings = { "garbage \u0000\u0001", "{\"version\": 1, \"rows\": [ {\"name\": \"x\"," })
	void corruptRegistryIsMovedAsideAndTheAppStarts(String content) throws Exception {
		Files.createDirectories(state());
		Files.writeString(state().resolve("registry.json"), content);
		try (SampleAppProcess app = SampleAppProcess
			.started(config("corrupt", "ok:\n  command: [\"sleep\", \"600\"]\n"), log("corrupt"))) {
			assertThat(app.output()).contains("moved aside");
		}
		try (var entries = Files.list(state())) {
			assertThat(entries.filter((p) -> p.getFileName().toString().startsWith("registry.json.corrupt-"))
				.anyMatch((p) -> content.equals(readQuietly(p)))).isTrue();
		}
	}

	@Test
	void directoryInPlaceOfTheRegistryIsMovedAsideAndTheAppStarts() throws Exception {
		Files.createDirectories(state().resolve("registry.json").resolve("inside"));
		try (SampleAppProcess app = SampleAppProcess
			.started(config("corrupt", "ok:\n  command: [\"sleep\", \"600\"]\n"), log("corrupt-directory"))) {
			assertThat(app.output()).contains("moved aside");
		}
	}

	@Test
	void unwritableStateDirectory() throws Exception {
		String yaml = Files.readString(config("readonly", "ok:\n  command: [\"sleep\", \"600\"]\n"))
			.replace("state-directory: " + state(), "state-directory: /proc/self/tether-state");
		Path config = Files.writeString(this.temp.resolve("readonly.yml"), yaml);
		assertThat(failsToStart(config, "readonly")).contains("/proc/self/tether-state");
	}

	private static String readQuietly(Path path) {
		try {
			return Files.readString(path);
		}
		catch (java.io.IOException ex) {
			return "";
		}
	}

}
