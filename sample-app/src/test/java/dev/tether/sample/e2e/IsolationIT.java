package dev.tether.sample.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.testsupport.Canary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenarios 7–9: two instances on one state directory, a reused pid in the registry, and
 * a foreign port holder. In each, what is not ours is never signalled (a recording canary
 * stands in for it).
 */
class IsolationIT extends FaultScenarioSupport {

	@Test
	void secondInstanceOnTheSameStateDirectoryFailsFastAndTouchesNothing() throws Exception {
		Path record = this.temp.resolve("worker.record");
		// Why JSON: a YAML flow sequence that carries the canary's script with its quotes
		// and newlines escaped.
		String command = JsonMapper.builder().build().writeValueAsString(Canary.command(record));
		// Why a short stop timeout: the canary ignores TERM, so the first app's stop of
		// it waits for the SIGKILL.
		Path config = config("two", "worker:\n  command: " + command + "\n  stop-timeout: 1s\n");
		try (SampleAppProcess first = SampleAppProcess.started(config, log("first"))) {
			await().atMost(Duration.ofSeconds(30)).until(() -> first.state("worker").equals("RUNNING"));
			Canary worker = Canary.observe(record);
			try (SampleAppProcess second = SampleAppProcess.start(config, log("second"))) {
				assertThat(second.awaitExit(Duration.ofSeconds(90))).isTrue();
				assertThat(second.output()).contains("is locked by another supervisor (pid " + first.pid() + ")")
					.contains(state().toString());
			}
			worker.assertUntouched();
			assertThat(first.child("worker").get("pid").asLong()).isEqualTo(worker.pid());
			assertThat(first.status("/actuator/health")).isEqualTo(200);
		}
	}

	@Test
	void registryRowNamingAnUnrelatedLiveProcessIsDroppedAndTheProcessIsNeverSignalled() throws Exception {
		try (Canary unrelated = Canary.child(this.temp.resolve("canary"), Map.of())) {
			IdentityProbe probe = IdentityProbe.forPlatform();
			RegistryRow row = new RegistryRow("worker", "agent", this.installation, unrelated.pid(), unrelated.pid(),
					unrelated.startTime(), probe.bootId().orElseThrow(), "RUNNING", Instant.now(), 0, null);
			Files.createDirectories(state());
			Files.writeString(state().resolve("registry.json"),
					JsonMapper.builder().build().writeValueAsString(Map.of("version", 1, "rows", List.of(row))));
			try (SampleAppProcess app = SampleAppProcess
				.started(config("reuse", "worker:\n  command: [\"sleep\", \"600\"]\n"), log("reuse"))) {
				JsonNode report = app.json("/actuator/children").get("reconciliation");
				assertThat(report.get("notOurs").asInt()).isEqualTo(1);
				assertThat(report.get("stopped").asInt()).isZero();
				await().atMost(Duration.ofSeconds(30)).until(() -> app.state("worker").equals("RUNNING"));
				assertThat(registryRows()).extracting((saved) -> saved.get("pid").asLong())
					.doesNotContain(unrelated.pid());
				unrelated.assertUntouched();
			}
			unrelated.assertUntouched();
		}
	}

	@Test
	void foreignListenerOnAChildsPortFailsOnlyThatChildAndIsNeverSignalled() throws Exception {
		try (Canary listener = Canary.listening(this.temp.resolve("canary"), Map.of())) {
			Path config = config("port", """
					server:
					  kind: mcp
					  port: %d
					  command: ["sleep", "600"]
					other:
					  command: ["sleep", "600"]
					""".formatted(listener.port()));
			try (SampleAppProcess app = SampleAppProcess.started(config, log("port"))) {
				await().atMost(Duration.ofSeconds(30)).until(() -> app.state("server").equals("FAILED"));
				assertThat(app.child("server").get("lastError").asString()).contains("port " + listener.port())
					.contains("pid " + listener.pid());
				assertThat(app.state("other")).isEqualTo("RUNNING");
				listener.assertUntouched();
			}
			listener.assertUntouched();
		}
	}

}
