package dev.tether.supervisor.boot;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.event.ChildLifecycleEvent;
import dev.tether.supervisor.boot.event.ChildRemovedEvent;
import dev.tether.supervisor.boot.event.ChildStartedEvent;
import dev.tether.supervisor.testsupport.LiveProcesses;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=health,children,metrics",
				"management.endpoint.children.access=unrestricted", "management.endpoint.health.show-details=always",
				"supervisor.tick-interval=50ms", "supervisor.children.greeter.command=sleep,600",
				"supervisor.children.files.kind=mcp", "supervisor.children.files.command=sleep,600",
				"supervisor.children.crasher.command=sh,-c,exit 3", "supervisor.children.crasher.max-restarts=1",
				"supervisor.children.crasher.backoff.initial=50ms", "supervisor.children.crasher.restart-window=10s",
				"supervisor.children.idle.command=sleep,600", "supervisor.children.idle.autostart=false" })
@DirtiesContext
class SupervisorApplicationTests extends RunningApplication {

	@Autowired
	Supervisor supervisor;

	@Autowired
	List<ChildLifecycleEvent> events;

	private JsonNode child(JsonNode children, String name) {
		for (JsonNode child : children.get("children")) {
			if (child.get("name").asString().equals(name)) {
				return child;
			}
		}
		throw new AssertionError("no child " + name + " in " + children);
	}

	@Test
	void childrenEndpointHasTheDocumentedShape() throws Exception {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.supervisor.snapshot("greeter").orElseThrow().state() == ChildState.RUNNING);
		HttpResponse<String> response = get("/actuator/children");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = readJson(response.body());
		assertThat(body.propertyNames()).containsExactlyInAnyOrder("installationId", "parentDeathMechanism",
				"parentDeathSignal", "descendants", "identityVerification", "nativeBackend", "parentDeathWarning",
				"spawn", "reconciliation", "descriptors", "children");
		assertThat(body.get("parentDeathWarning").isNull()).isTrue();
		assertThat(body.get("descriptors").propertyNames()).containsExactlyInAnyOrder("used", "limit", "reserve",
				"perChild", "sampled", "room", "refusals");
		assertThat(body.get("nativeBackend").asString()).isEqualTo((Runtime.version().feature() >= 22) ? "ffm" : "jnr");
		assertThat(body.get("spawn").propertyNames()).containsExactlyInAnyOrder("method", "workingDirectory",
				"closeDescriptors");
		assertThat(body.get("spawn").get("method").asString()).isEqualTo("posix_spawnp");
		assertThat(body.get("spawn").get("workingDirectory").asString()).isIn("spawn-action", "launcher");
		assertThat(body.get("spawn").get("closeDescriptors").asString()).isIn("closefrom", "close-each");
		assertThat(body.get("installationId").asString()).startsWith("test-");
		assertThat(body.get("parentDeathSignal").asString()).isEqualTo("launcher");
		assertThat(body.get("descendants").asString()).isEqualTo("shepherd");
		assertThat(body.get("identityVerification").asBoolean()).isTrue();
		assertThat(body.get("reconciliation").propertyNames()).containsExactlyInAnyOrder("at", "ours", "notOurs",
				"gone", "unverifiable", "stopped", "adopted");
		JsonNode greeter = child(body, "greeter");
		assertThat(greeter.propertyNames()).containsExactlyInAnyOrder("name", "kind", "state", "pid", "shepherdPid",
				"startedAt", "uptimeSeconds", "restarts", "port", "socketActivation", "lastExit", "lastError",
				"statusText", "critical", "readiness", "liveness", "details", "resources");
		assertThat(greeter.get("resources").propertyNames()).containsExactlyInAnyOrder("memoryBytes", "cpuSeconds",
				"processes", "zombies", "descriptors", "maxMemoryRestarts");
		assertThat(greeter.get("kind").asString()).isEqualTo("agent");
		assertThat(greeter.get("state").asString()).isEqualTo("RUNNING");
		assertThat(greeter.get("pid").asLong()).isPositive();
		assertThat(greeter.get("shepherdPid").asLong()).isPositive().isNotEqualTo(greeter.get("pid").asLong());
		assertThat(greeter.get("lastExit").isNull()).isTrue();
		assertThat(greeter.get("port").isNull()).isTrue();
		assertThat(greeter.get("socketActivation").isNull()).isTrue();
		assertThat(child(body, "files").get("kind").asString()).isEqualTo("mcp");
		JsonNode idle = child(body, "idle");
		assertThat(idle.get("state").asString()).isEqualTo("STOPPED");
		assertThat(idle.get("pid").isNull()).isTrue();
		assertThat(idle.get("shepherdPid").isNull()).isTrue();
		assertThat(response.body()).doesNotContain("TETHER_").doesNotContain("environment");
		assertThat(get("/actuator/children/greeter").statusCode()).isEqualTo(200);
		assertThat(get("/actuator/children/nobody").statusCode()).isEqualTo(404);
	}

	@Test
	void postRestartGivesANewPid() throws Exception {
		// Why the pid awaited too: a child without a port is RUNNING once spawned, and
		// under a shepherd the pid shown is its command's, known once the shepherd has
		// forked it.
		long before = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.supervisor.snapshot("files").orElseThrow(),
					(files) -> files.state() == ChildState.RUNNING && files.pid() != null)
			.pid();
		HttpResponse<String> response = post("/actuator/children/files", "{\"action\": \"restart\"}");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode after = readJson(response.body());
		assertThat(after.get("state").asString()).isEqualTo("RUNNING");
		// Why the answer's pid may be null: the new shepherd may not have forked the
		// command yet when it answers.
		if (!after.get("pid").isNull()) {
			assertThat(after.get("pid").asLong()).isPositive().isNotEqualTo(before);
		}
		long restarted = await().atMost(Duration.ofSeconds(10))
			.until(() -> this.supervisor.snapshot("files").orElseThrow().pid(), (pid) -> pid != null);
		assertThat(restarted).isNotEqualTo(before);
		assertThat(LiveProcesses.isAlive(before)).isFalse();
		assertThat(post("/actuator/children/files", "{\"action\": \"explode\"}").statusCode()).isEqualTo(400);
		assertThat(post("/actuator/children/nobody", "{\"action\": \"start\"}").statusCode()).isEqualTo(404);
	}

	@Test
	void crashLoopMakesHealthDownAndItsComponentSaysWhy() throws Exception {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.supervisor.snapshot("crasher").orElseThrow().state() == ChildState.FAILED);
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(503);
		JsonNode crasher = getJson("/actuator/health/supervisor/crasher");
		assertThat(crasher.get("status").asString()).isEqualTo("DOWN");
		assertThat(crasher.get("details").get("state").asString()).isEqualTo("FAILED");
		assertThat(crasher.get("details").get("lastError").asString()).contains("restarted 1 times");
		JsonNode greeter = getJson("/actuator/health/supervisor/greeter");
		assertThat(greeter.get("status").asString()).isEqualTo("UP");
		assertThat(greeter.get("details").get("pid").asLong()).isPositive();
	}

	@Test
	void metersExistWithTheirTags() throws Exception {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.supervisor.snapshot("crasher").orElseThrow().state() == ChildState.FAILED);
		JsonNode starts = getJson("/actuator/metrics/supervisor.child.starts?tag=child:crasher");
		assertThat(starts.get("measurements").get(0).get("value").asDouble()).isEqualTo(2.0);
		JsonNode restarts = getJson("/actuator/metrics/supervisor.child.restarts?tag=child:crasher");
		assertThat(restarts.get("measurements").get(0).get("value").asDouble()).isEqualTo(1.0);
		JsonNode exits = getJson(
				"/actuator/metrics/supervisor.child.exits?tag=child:crasher&tag=outcome:failure&tag=kind:agent");
		assertThat(exits.get("measurements").get(0).get("value").asDouble()).isEqualTo(2.0);
		JsonNode failed = getJson("/actuator/metrics/supervisor.children?tag=state:FAILED");
		assertThat(failed.get("measurements").get(0).get("value").asDouble()).isGreaterThanOrEqualTo(1.0);
		assertThat(get("/actuator/metrics/supervisor.spawn?tag=outcome:success").statusCode()).isEqualTo(200);
		assertThat(get("/actuator/metrics/supervisor.reap.tick").statusCode()).isEqualTo(200);
	}

	@Test
	void aChildAddedAtRuntimeIsShownMeteredAndRegisteredThenGoesWhollyWhenRemoved() throws Exception {
		ChildSnapshot added = this.supervisor.add(ChildSpec.builder("tenant-7", List.of("sleep", "600")).build());
		assertThat(added.state()).isEqualTo(ChildState.RUNNING);
		JsonNode shown = getJson("/actuator/children/tenant-7");
		assertThat(shown.get("state").asString()).isEqualTo("RUNNING");
		assertThat(shown.get("pid").asLong()).isEqualTo(added.pid());
		assertThat(get("/actuator/health/supervisor/tenant-7").statusCode()).isEqualTo(200);
		assertThat(get("/actuator/metrics/supervisor.child.starts?tag=child:tenant-7").statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Files.readString(state.resolve("registry.json")).contains("\"name\" : \"tenant-7\""));
		assertThat(this.supervisor.remove("tenant-7")).isEqualTo(StopOutcome.EXITED);
		await().atMost(Duration.ofSeconds(10)).until(() -> !LiveProcesses.isAlive(added.pid()));
		assertThat(get("/actuator/children/tenant-7").statusCode()).isEqualTo(404);
		assertThat(get("/actuator/metrics/supervisor.child.starts?tag=child:tenant-7").statusCode()).isEqualTo(404);
		assertThat(Files.readString(state.resolve("registry.json"))).doesNotContain("tenant-7");
		assertThat(this.events)
			.anyMatch((e) -> e instanceof ChildRemovedEvent && e.getChild().name().equals("tenant-7"));
	}

	@Test
	void applicationEventsArePublished() {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.events.stream()
				.anyMatch((e) -> e instanceof ChildStartedEvent && e.getChild().name().equals("greeter")));
	}

	@Test
	void registryHoldsTheRunningChildren() {
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			String registry = Files.readString(state.resolve("registry.json"));
			return registry.contains("\"name\" : \"greeter\"") && registry.contains("\"name\" : \"files\"");
		});
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		List<ChildLifecycleEvent> events() {
			return new java.util.concurrent.CopyOnWriteArrayList<>();
		}

		@Bean
		ApplicationListener<ChildLifecycleEvent> recorder(List<ChildLifecycleEvent> events) {
			return events::add;
		}

	}

}
