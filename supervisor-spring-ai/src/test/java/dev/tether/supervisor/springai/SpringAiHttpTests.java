package dev.tether.supervisor.springai;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
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
 * Spring AI's MCP client over supervised streamable-HTTP and SSE MCP servers on 127.0.0.1, with real processes.
 */
@EnabledOnOs(OS.LINUX)
class SpringAiHttpTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path state;

	@Test
	void springAisClientCallsASupervisedHttpServerAndANewSessionFollowsItsRestart() throws Exception {
		int port;
		try (ServerSocket probe = new ServerSocket(0)) {
			port = probe.getLocalPort();
		}
		String installation = TestRun.installationId("spring-ai-http");
		McpHosts.runner(this.state, installation)
			.withPropertyValues("supervisor.children.web.command[0]=sh", "supervisor.children.web.command[1]=-c",
					"supervisor.children.web.command[2]="
							+ McpHosts.shell(JavaCommand.main(McpHttpFixtureServer.class, Integer.toString(port)))
							+ "; exit $?",
					"supervisor.children.web.port=" + port, "supervisor.children.web.mcp.transport=streamable-http",
					"supervisor.children.web.backoff.initial=3s", "supervisor.children.web.max-restarts=1")
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
				await("the restarted server answers").atMost(DEADLINE).ignoreExceptions()
					.until(() -> Long.parseLong(text(client.callTool(call("pid")))) != serverPid);
			});
		await("no server left").atMost(DEADLINE)
			.until(() -> LiveProcesses.withEnvironmentEntry("TETHER_INSTALLATION=" + installation).isEmpty());
	}

	@Test
	void springAisClientCallsASupervisedServerOverSse() throws Exception {
		int port;
		try (ServerSocket probe = new ServerSocket(0)) {
			port = probe.getLocalPort();
		}
		String installation = TestRun.installationId("spring-ai-sse");
		McpHosts.runner(this.state, installation)
			.withPropertyValues("supervisor.children.events.command[0]=sh", "supervisor.children.events.command[1]=-c",
					"supervisor.children.events.command[2]="
							+ McpHosts.shell(JavaCommand.main(McpHttpFixtureServer.class, Integer.toString(port), "sse"))
							+ "; exit $?",
					"supervisor.children.events.port=" + port, "supervisor.children.events.mcp.transport=sse",
					"supervisor.children.events.mcp.path=/sse")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(SpringAiStdioTests.tool(context.getBean(ToolCallbackProvider.class), "echo")
					.call("{\"text\":\"over sse\"}")).contains("echo: over sse");
				assertThat(context.getBean(ChildrenEndpoint.class).child("events").details()).containsEntry("mcp",
						Map.of("transport", "sse", "session", "initialized", "tools", 2));
			});
		await("no server left").atMost(DEADLINE)
			.until(() -> LiveProcesses.withEnvironmentEntry("TETHER_INSTALLATION=" + installation).isEmpty());
	}

}
