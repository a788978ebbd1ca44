package dev.tether.supervisor.springai;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpSyncClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallbackProvider;

import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.actuate.ChildrenEndpoint;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;

import static dev.tether.supervisor.springai.SpringAiStdioTests.call;
import static dev.tether.supervisor.springai.SpringAiStdioTests.messages;
import static dev.tether.supervisor.springai.SpringAiStdioTests.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Spring AI's MCP client over supervised streamable-HTTP and SSE MCP servers on
 * 127.0.0.1, with real processes.
 */
@EnabledOnOs(OS.LINUX)
class SpringAiHttpTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path state;

	@Test
	void springAisClientCallsASupervisedHttpServerAndANewSessionFollowsItsRestart() throws Exception {
		int port = freePort();
		String installation = TestRun.installationId("spring-ai-http");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(fixtureServer("web", port, "streamable-http"))
			.withPropertyValues("supervisor.children.web.backoff.initial=3s", "supervisor.children.web.max-restarts=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(SpringAiStdioTests.tool(context.getBean(ToolCallbackProvider.class), "echo")
					.call("{\"text\":\"over http\"}")).contains("echo: over http");
				McpSyncClient client = SpringAiStdioTests.client(context.getBean("mcpSyncClients", List.class));
				long serverPid = Long.parseLong(text(client.callTool(call("pid"))));
				assertThat(context.getBean(ChildrenEndpoint.class).child("web").details()).containsEntry("mcp",
						Map.of("transport", "streamable-http", "session", "initialized", "tools", 2));
				Supervisor supervisor = context.getBean(Supervisor.class);
				new ProcessBuilder("kill", "-9", Long.toString(serverPid)).start().waitFor();
				await("the child is waiting for its restart").atMost(DEADLINE)
					.until(() -> supervisor.snapshot("web").orElseThrow().state() == ChildState.BACKOFF);
				assertThatThrownBy(() -> client.callTool(call("pid")))
					.satisfies((ex) -> assertThat(messages(ex)).contains("MCP server 'web'").contains("BACKOFF"));
				await("the restarted server answers").atMost(DEADLINE)
					.ignoreExceptions()
					.until(() -> Long.parseLong(text(client.callTool(call("pid")))) != serverPid);
			});
		awaitNoServerLeft(installation);
	}

	@Test
	void springAisClientCallsASupervisedServerOverSse() throws Exception {
		int port = freePort();
		String installation = TestRun.installationId("spring-ai-sse");
		McpHosts.runner(this.state, installation)
			.withPropertyValues(fixtureServer("events", port, "sse", "sse"))
			.withPropertyValues("supervisor.children.events.mcp.path=/sse")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(SpringAiStdioTests.tool(context.getBean(ToolCallbackProvider.class), "echo")
					.call("{\"text\":\"over sse\"}")).contains("echo: over sse");
				assertThat(context.getBean(ChildrenEndpoint.class).child("events").details()).containsEntry("mcp",
						Map.of("transport", "sse", "session", "initialized", "tools", 2));
			});
		awaitNoServerLeft(installation);
	}

	static int freePort() throws IOException {
		try (ServerSocket probe = new ServerSocket(0)) {
			return probe.getLocalPort();
		}
	}

	/**
	 * The properties of a child {@code name} that runs the HTTP fixture server on
	 * {@code port} under {@code sh -c}, with {@code fixtureArguments} after the port,
	 * connected by Spring AI over {@code transport}.
	 */
	static String[] fixtureServer(String name, int port, String transport, String... fixtureArguments) {
		List<String> arguments = new ArrayList<>(List.of(Integer.toString(port)));
		arguments.addAll(List.of(fixtureArguments));
		String child = "supervisor.children." + name + ".";
		return new String[] { child + "command[0]=sh", child + "command[1]=-c",
				child + "command[2]="
						+ McpHosts.shell(JavaCommand.main(McpHttpFixtureServer.class, arguments.toArray(String[]::new)))
						+ "; exit $?",
				child + "port=" + port, child + "mcp.transport=" + transport };
	}

	private static void awaitNoServerLeft(String installation) {
		await("no server left").atMost(DEADLINE)
			.until(() -> LiveProcesses.withEnvironmentEntry("TETHER_INSTALLATION=" + installation).isEmpty());
	}

}
