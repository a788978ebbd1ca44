package dev.tether.supervisor.springai;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallbackProvider;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.UpdateReport;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.TestRun;

import static dev.tether.supervisor.springai.SpringAiProductionTests.awaitNoServerLeft;
import static dev.tether.supervisor.springai.SpringAiStdioTests.tool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The tools Spring AI offers follow the supervised MCP servers, with real processes: a
 * server restarted as a new version offers its renamed tool and no longer the old one,
 * and an optional server whose command is fixed at runtime ({@link Supervisor#update})
 * offers its tools without an application restart, and a tool a running server adds and
 * announces ({@code notifications/tools/list_changed}) is offered, same process.
 */
@EnabledOnOs(OS.LINUX)
class SpringAiToolsFollowTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path state;

	@Test
	void aServerRestartedAsANewVersionOffersItsRenamedToolAndNoLongerTheOldOne() throws Exception {
		Path version = this.state.resolve("tool-name");
		Files.writeString(version, "old_name");
		String installation = TestRun.installationId("spring-ai-renamed");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(versioned("required", version))
			.withPropertyValues(versioned("optional", version))
			.withPropertyValues("supervisor.children.optional.mcp.required=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ToolCallbackProvider required = context.getBean("mcpToolCallbacks", ToolCallbackProvider.class);
				ToolCallbackProvider optional = context.getBean("tetherMcpOptionalToolCallbacks",
						ToolCallbackProvider.class);
				assertThat(tool(required, "old_name").call("{}")).contains("old_name");
				await("the optional server's tools are offered").atMost(DEADLINE)
					.ignoreExceptions()
					.until(() -> names(optional), (names) -> names.stream().anyMatch((n) -> n.endsWith("old_name")));
				Supervisor supervisor = context.getBean(Supervisor.class);
				ChildSnapshot before = supervisor.snapshot("required").orElseThrow();

				Files.writeString(version, "new_name");
				new ProcessBuilder("kill", "-9", Long.toString(Objects.requireNonNull(before.pid()))).start().waitFor();
				supervisor.restart("optional");

				for (ToolCallbackProvider provider : List.of(required, optional)) {
					await("the new version's tool replaces the old one").atMost(DEADLINE)
						.ignoreExceptions()
						.until(() -> names(provider), (names) -> names.stream().anyMatch((n) -> n.endsWith("new_name"))
								&& names.stream().noneMatch((n) -> n.endsWith("old_name")));
					assertThat(tool(provider, "new_name").call("{}")).contains("new_name");
				}
				assertThat(supervisor.snapshot("required").orElseThrow().pid()).isNotEqualTo(before.pid());
			});
		awaitNoServerLeft(installation);
	}

	@Test
	void anOptionalServerWhoseCommandIsFixedThroughAnUpdateOffersItsToolsWithoutARestart() {
		String installation = TestRun.installationId("spring-ai-updated");
		McpHosts.runner(this.state, installation)
			.withPropertyValues("supervisor.children.late.command[0]=/bin/false",
					"supervisor.children.late.mcp.transport=stdio", "supervisor.children.late.mcp.required=false",
					"supervisor.children.late.backoff.initial=1s", "supervisor.children.late.backoff.max=1s")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Supervisor supervisor = context.getBean(Supervisor.class);
				ToolCallbackProvider optional = context.getBean("tetherMcpOptionalToolCallbacks",
						ToolCallbackProvider.class);
				await("the broken server has failed").atMost(DEADLINE)
					.until(() -> supervisor.snapshot("late").orElseThrow().lastExit() != null);
				assertThat(optional.getToolCallbacks()).isEmpty();

				// Why every child's spec: an update removes the configured children it
				// does not name.
				List<ChildSpec> configured = supervisor.snapshots()
					.stream()
					.map((child) -> supervisor.spec(child.name()).orElseThrow())
					.map((spec) -> spec.name().equals("late")
							? spec.toBuilder().command(JavaCommand.main(McpFixtureServer.class)).build() : spec)
					.toList();
				UpdateReport report = supervisor.update(configured);
				assertThat(report.changed()).containsExactly("late");

				await("the fixed server's tools are offered").atMost(DEADLINE)
					.ignoreExceptions()
					.until(() -> names(optional), (names) -> names.stream().anyMatch((n) -> n.endsWith("echo")));
				assertThat(tool(optional, "echo").call("{\"text\":\"fixed\"}")).contains("echo: fixed");
				assertThat(supervisor.snapshot("late").orElseThrow().state()).isEqualTo(ChildState.RUNNING);
			});
		awaitNoServerLeft(installation);
	}

	@Test
	void aToolAddedWhileTheServerRunsIsOfferedWithoutARestart() {
		String installation = TestRun.installationId("spring-ai-list-changed");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(server("required", McpFixtureServer.ADDS_TOOLS))
			.withPropertyValues(server("optional", McpFixtureServer.ADDS_TOOLS))
			.withPropertyValues("supervisor.children.optional.mcp.required=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Supervisor supervisor = context.getBean(Supervisor.class);
				ToolCallbackProvider required = context.getBean("mcpToolCallbacks", ToolCallbackProvider.class);
				ToolCallbackProvider optional = context.getBean("tetherMcpOptionalToolCallbacks",
						ToolCallbackProvider.class);
				await("the optional server's tools are offered").atMost(DEADLINE)
					.ignoreExceptions()
					.until(() -> names(optional), (names) -> names.stream().anyMatch((n) -> n.endsWith("add_tool")));
				Map<String, Long> pids = new LinkedHashMap<>();
				for (String name : List.of("required", "optional")) {
					pids.put(name, supervisor.snapshot(name).orElseThrow().pid());
				}

				assertThat(tool(required, "add_tool").call("{\"name\":\"added_required\"}"))
					.contains("added: added_required");
				assertThat(tool(optional, "add_tool").call("{\"name\":\"added_optional\"}"))
					.contains("added: added_optional");

				Map.of("added_required", required, "added_optional", optional).forEach((added, provider) -> {
					ThreadDumps.onTimeout(() -> await("the added tool is offered").atMost(DEADLINE)
						.ignoreExceptions()
						.until(() -> names(provider), (names) -> names.stream().anyMatch((n) -> n.endsWith(added))),
							pids);
					assertThat(tool(provider, added).call("{}")).contains(added);
				});
				pids.forEach((name, pid) -> assertThat(supervisor.snapshot(name).orElseThrow().pid())
					.as("the pid of %s", name)
					.isEqualTo(pid));
			});
		awaitNoServerLeft(installation);
	}

	/**
	 * A stdio MCP child that runs {@link McpFixtureServer} itself (its pid is the
	 * server's), with a tool named by {@code version}'s content as it starts.
	 */
	private static String[] versioned(String name, Path version) {
		return server(name, version.toString());
	}

	/**
	 * A stdio MCP child that runs {@link McpFixtureServer} itself (its pid is the
	 * server's) with {@code arguments}.
	 */
	private static String[] server(String name, String... arguments) {
		List<String> command = JavaCommand.main(McpFixtureServer.class, arguments);
		String child = "supervisor.children." + name + ".";
		String[] properties = new String[command.size() + 2];
		for (int i = 0; i < command.size(); i++) {
			properties[i] = child + "command[" + i + "]=" + command.get(i);
		}
		properties[command.size()] = child + "mcp.transport=stdio";
		properties[command.size() + 1] = child + "backoff.initial=500ms";
		return properties;
	}

	private static List<String> names(ToolCallbackProvider provider) {
		return Arrays.stream(provider.getToolCallbacks())
			.map((callback) -> callback.getToolDefinition().name())
			.toList();
	}

}
