package dev.tether.supervisor.springai;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpSyncClient;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.actuate.ChildrenEndpoint;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;

import static dev.tether.supervisor.springai.SpringAiStdioTests.call;
import static dev.tether.supervisor.springai.SpringAiStdioTests.messages;
import static dev.tether.supervisor.springai.SpringAiStdioTests.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.list;
import static org.assertj.core.api.InstanceOfAssertFactories.map;
import static org.awaitility.Awaitility.await;

/**
 * MCP servers that fail or misbehave, with real processes: an optional server never takes
 * the application down, a required one fails startup with its reason, and a stdio server
 * that closes its stdout, floods it or writes stray lines to it is bounded and restarted.
 */
@EnabledOnOs(OS.LINUX)
@ExtendWith(OutputCaptureExtension.class)
class SpringAiProductionTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	/**
	 * Far below Spring AI's request timeout (20 s): a dead pipe is seen, not waited for.
	 */
	private static final Duration FAST = Duration.ofSeconds(5);

	@TempDir
	Path state;

	@Test
	void anOptionalServerThatCannotStartNeverBlocksStartupAndItsToolsAppearOnceItRuns(CapturedOutput output)
			throws Exception {
		Path fixed = this.state.resolve("fixed");
		int port = SpringAiHttpTests.freePort();
		String installation = TestRun.installationId("spring-ai-optional");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(McpHosts.stdioFixture("fixture"))
			.withPropertyValues(SpringAiHttpTests.fixtureServer("web", port, "streamable-http"))
			.withPropertyValues(brokenUntil("flaky", fixed))
			.withPropertyValues("supervisor.children.flaky.mcp.required=false",
					"supervisor.children.flaky.backoff.initial=1s", "supervisor.children.flaky.backoff.max=1s",
					"supervisor.children.flaky.max-restarts=50", "supervisor.children.flaky.restart-window=5m")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Map<String, ToolCallbackProvider> providers = context.getBeansOfType(ToolCallbackProvider.class);
				assertThat(providers).containsKeys("mcpToolCallbacks", "tetherMcpOptionalToolCallbacks");
				assertThat(tool(providers.get("mcpToolCallbacks"), "echo").call("{\"text\":\"up\"}"))
					.contains("echo: up");
				ToolCallbackProvider optional = providers.get("tetherMcpOptionalToolCallbacks");
				assertThat(optional.getToolCallbacks()).isEmpty();
				Supervisor supervisor = context.getBean(Supervisor.class);
				await("the optional server's stderr is in its status").atMost(DEADLINE).untilAsserted(() -> {
					Map<String, Object> details = context.getBean(ChildrenEndpoint.class).child("flaky").details();
					assertThat(details).extractingByKey("mcp", map(String.class, Object.class))
						.containsEntry("session", "down")
						.extractingByKey("lastOutput", list(String.class))
						.contains("cannot read /srv/config");
				});
				Files.writeString(fixed, "");
				await("the optional server's tools are offered once it runs").atMost(DEADLINE)
					.until(() -> optional.getToolCallbacks().length > 0);
				assertThat(tool(optional, "pid").call("{}")).matches(".*\\d+.*");
				assertThat(supervisor.snapshot("flaky").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
			});
		assertThat(output).doesNotContain("Error during asynchronous close");
		awaitNoServerLeft(installation);
	}

	@Test
	void aRequiredServerThatCannotStartFailsStartupNamingItsStateAndItsLastStderrLine() {
		String installation = TestRun.installationId("spring-ai-required");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(brokenUntil("files", this.state.resolve("never")))
			.withPropertyValues("supervisor.children.files.backoff.initial=10s",
					"supervisor.children.files.restart-window=10m")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(messages(context.getStartupFailure())).contains("MCP server 'files'")
					.contains("BACKOFF")
					.contains("cannot read /srv/config");
			});
		awaitNoServerLeft(installation);
	}

	@Test
	void aStdioServerThatClosesItsStdoutFloodsItOrWritesStrayLinesIsBoundedAndRestarted(CapturedOutput output)
			throws Exception {
		String installation = TestRun.installationId("spring-ai-misbehaving");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(misbehaving("odd"))
			.withPropertyValues("supervisor.children.odd.mcp.max-message-size=1MB",
					"supervisor.children.odd.backoff.initial=1s",
					"supervisor.children.odd.command[2]=" + this.state.resolve("v2"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpSyncClient client = SpringAiStdioTests.client(context.getBean("mcpSyncClients", List.class));
				Supervisor supervisor = context.getBean(Supervisor.class);

				assertThat(text(client.callTool(call("stray")))).isEqualTo("stray");
				assertThat(output).contains("\\u001b[1A\\u001b[2K FORGED admin login ok 0")
					.doesNotContain("\u001b[1A")
					.doesNotContain("FORGED admin login ok 5");
				Path log = Objects.requireNonNull(supervisor.output("odd").orElseThrow().file());
				await("every stray line is in the server's log").atMost(DEADLINE)
					.until(() -> Files.readString(log).contains("FORGED admin login ok 49"));

				for (String tool : List.of("hangup", "flood")) {
					ChildSnapshot before = supervisor.snapshot("odd").orElseThrow();
					long asked = System.nanoTime();
					assertThatThrownBy(() -> client.callTool(call(tool))).isNotNull();
					assertThat(Duration.ofNanos(System.nanoTime() - asked)).as(tool).isLessThan(FAST);
					awaitRestartedSince(supervisor, "odd", before.startedAt());
					await("the restarted server answers").atMost(DEADLINE)
						.ignoreExceptions()
						.until(() -> Long.parseLong(text(client.callTool(call("pid")))) > 0);
				}

				ToolCallbackProvider tools = context.getBean(ToolCallbackProvider.class);
				long pid = Long.parseLong(text(client.callTool(call("pid"))));
				Files.writeString(this.state.resolve("v2"), "");
				new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
				await("the new version's tools replace the old ones").atMost(DEADLINE)
					.ignoreExceptions()
					.until(() -> Arrays.stream(tools.getToolCallbacks())
						.map((callback) -> callback.getToolDefinition().name())
						.toList(),
							(names) -> names.stream().anyMatch((name) -> name.matches(".*pid.v2"))
									&& names.stream().noneMatch((name) -> name.endsWith("pid")));
			});
		assertThat(output).contains("Child 'odd' ended its MCP session: it closed its stdout")
			.contains("broke the protocol")
			.contains("mcp.max-message-size");
		awaitNoServerLeft(installation);
	}

	@Test
	void mcpPingRestartsAServerThatStopsAnsweringButNotOneWithoutPingNorOneBusyWithALongCall(CapturedOutput output)
			throws Exception {
		String installation = TestRun.installationId("spring-ai-ping");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(misbehaving("healthy"))
			.withPropertyValues(misbehaving("frozen"))
			.withPropertyValues("supervisor.children.healthy.command[2]=" + this.state.resolve("v2"),
					"supervisor.children.healthy.command[3]=no-ping", "supervisor.defaults.mcp.ping=300ms",
					"supervisor.defaults.mcp.ping-failure-threshold=2", "spring.ai.mcp.client.request-timeout=8s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Supervisor supervisor = context.getBean(Supervisor.class);
				McpSyncClient healthy = named(context.getBean("mcpSyncClients", List.class), "healthy");
				McpSyncClient frozen = named(context.getBean("mcpSyncClients", List.class), "frozen");
				Instant healthyStarted = supervisor.snapshot("healthy").orElseThrow().startedAt();
				Instant frozenStarted = supervisor.snapshot("frozen").orElseThrow().startedAt();
				CompletableFuture<String> slow = CompletableFuture
					.supplyAsync(() -> text(healthy.callTool(call("slow"))));
				assertThatThrownBy(() -> frozen.callTool(call("freeze"))).isNotNull();
				awaitRestartedSince(supervisor, "frozen", frozenStarted);
				assertThat(slow.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("slow");
				assertThat(supervisor.snapshot("healthy").orElseThrow().startedAt()).isEqualTo(healthyStarted);
			});
		assertThat(output).contains("Child 'frozen' failed its MCP ping 2 times in a row")
			.doesNotContain("Child 'healthy' failed its MCP ping");
		awaitNoServerLeft(installation);
	}

	private static void awaitRestartedSince(Supervisor supervisor, String name, @Nullable Instant before) {
		Instant since = Objects.requireNonNull(before);
		await("'" + name + "' is restarted").atMost(DEADLINE)
			.until(() -> supervisor.snapshot(name)
				.map(ChildSnapshot::startedAt)
				.filter((started) -> started.isAfter(since))
				.isPresent());
	}

	private static McpSyncClient named(List<?> clients, String name) {
		return clients.stream()
			.map(McpSyncClient.class::cast)
			.filter((client) -> name.equals(client.getClientInfo().title()))
			.findFirst()
			.orElseThrow();
	}

	/**
	 * A stdio child that says why it cannot start on its stderr and exits, until
	 * {@code fixed} exists; then it runs the misbehaving server.
	 */
	private static String[] brokenUntil(String name, Path fixed) {
		String server = McpHosts.shell(List.of("python3", script()));
		String child = "supervisor.children." + name + ".";
		return new String[] {
				child + "command[0]=sh", child + "command[1]=-c", child + "command[2]=if [ -e '" + fixed
						+ "' ]; then exec " + server + "; fi; echo 'cannot read /srv/config' >&2; exit 3",
				child + "mcp.transport=stdio" };
	}

	private static String[] misbehaving(String name) {
		String child = "supervisor.children." + name + ".";
		return new String[] { child + "command[0]=python3", child + "command[1]=" + script(),
				child + "mcp.transport=stdio" };
	}

	private static String script() {
		return Path.of("src/test/resources/misbehaving-mcp-server.py").toAbsolutePath().toString();
	}

	private static ToolCallback tool(ToolCallbackProvider provider, String name) {
		return Arrays.stream(provider.getToolCallbacks())
			.filter((callback) -> callback.getToolDefinition().name().endsWith(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no tool " + name));
	}

	static void awaitNoServerLeft(String installation) {
		await("no server left").atMost(DEADLINE)
			.until(() -> LiveProcesses.withEnvironmentEntry("TETHER_INSTALLATION=" + installation).isEmpty());
	}

}
