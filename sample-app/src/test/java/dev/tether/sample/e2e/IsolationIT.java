package dev.tether.sample.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.identity.IdentityProbe;
import dev.tether.supervisor.registry.RegistryRow;
import dev.tether.supervisor.testsupport.Listen;
import dev.tether.supervisor.testsupport.LiveProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scenarios 7–9: two instances on one state directory, a reused pid in the registry, and a foreign port holder.
 * In each, what is not ours stays untouched.
 */
class IsolationIT extends FaultScenarioSupport {

	@Test
	void secondInstanceOnTheSameStateDirectoryFailsFastAndTouchesNothing() throws Exception {
		Path config = config("two", "worker:\n  command: [\"sleep\", \"600\"]\n");
		try (SampleAppProcess first = SampleAppProcess.started(config, log("first"))) {
			await().atMost(Duration.ofSeconds(10)).until(() -> first.state("worker").equals("RUNNING"));
			long worker = first.child("worker").get("pid").asLong();
			try (SampleAppProcess second = SampleAppProcess.start(config, log("second"))) {
				assertThat(second.awaitExit(Duration.ofSeconds(60))).isTrue();
				assertThat(second.output()).contains("is locked by another supervisor (pid " + first.pid() + ")")
					.contains(state().toString());
			}
			assertThat(LiveProcesses.isAlive(worker)).isTrue();
			assertThat(first.child("worker").get("pid").asLong()).isEqualTo(worker);
			assertThat(first.status("/actuator/health")).isEqualTo(200);
		}
	}

	@Test
	void registryRowNamingAnUnrelatedLiveProcessIsDroppedAndTheProcessLives() throws Exception {
		Process unrelated = new ProcessBuilder("sleep", "600").start();
		try {
			IdentityProbe probe = IdentityProbe.forPlatform();
			RegistryRow row = new RegistryRow("worker", "agent", this.installation, unrelated.pid(), unrelated.pid(),
					probe.stat(unrelated.pid()).orElseThrow().startTime(), probe.bootId().orElseThrow(), "RUNNING",
					Instant.now(), 0, null);
			Files.createDirectories(state());
			Files.writeString(state().resolve("registry.json"), JsonMapper.builder()
				.build()
				.writeValueAsString(java.util.Map.of("version", 1, "rows", List.of(row))));
			try (SampleAppProcess app = SampleAppProcess.started(config("reuse", "worker:\n  command: [\"sleep\", \"600\"]\n"),
					log("reuse"))) {
				JsonNode report = app.json("/actuator/children").get("reconciliation");
				assertThat(report.get("notOurs").asInt()).isEqualTo(1);
				assertThat(unrelated.isAlive()).isTrue();
				await().atMost(Duration.ofSeconds(10)).until(() -> app.state("worker").equals("RUNNING"));
				String registry = Files.readString(state().resolve("registry.json"));
				assertThat(registry).doesNotContain("\"pid\" : " + unrelated.pid() + ",");
			}
			assertThat(unrelated.isAlive()).isTrue();
		}
		finally {
			unrelated.destroyForcibly();
			unrelated.waitFor();
		}
	}

	@Test
	void foreignListenerOnAChildsPortFailsOnlyThatChild() throws Exception {
		int port = SampleAppProcess.freePort();
		Process listener = new ProcessBuilder(Listen.command(port)).start();
		try {
			await().atMost(Duration.ofSeconds(20)).until(() -> dev.tether.supervisor.ports.PortGuard.acceptsConnections(port));
			Path config = config("port", """
					server:
					  kind: mcp
					  port: %d
					  command: ["sleep", "600"]
					other:
					  command: ["sleep", "600"]
					""".formatted(port));
			try (SampleAppProcess app = SampleAppProcess.started(config, log("port"))) {
				await().atMost(Duration.ofSeconds(10)).until(() -> app.state("server").equals("FAILED"));
				assertThat(app.child("server").get("lastError").asString()).contains("port " + port)
					.contains("pid " + listener.pid());
				assertThat(app.state("other")).isEqualTo("RUNNING");
				assertThat(listener.isAlive()).isTrue();
			}
			assertThat(listener.isAlive()).isTrue();
		}
		finally {
			listener.destroyForcibly();
			listener.waitFor();
		}
	}

}
