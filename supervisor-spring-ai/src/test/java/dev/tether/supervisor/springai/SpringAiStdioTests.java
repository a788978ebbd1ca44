package dev.tether.supervisor.springai;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.mcp.client.common.autoconfigure.NamedClientMcpTransport;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.actuate.ChildrenEndpoint;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Spring AI's MCP client over a supervised stdio MCP server, with real processes and real
 * MCP sessions.
 */
@EnabledOnOs(OS.LINUX)
class SpringAiStdioTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path state;

	private final String installation = TestRun.installationId("spring-ai-stdio");

	private ApplicationContextRunner runner() {
		return McpHosts.runner(this.state, this.installation).withPropertyValues(McpHosts.stdioFixture("fixture"));
	}

	@Test
	void springAisClientListsAndCallsTheToolsOfASupervisedStdioServer() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			ToolCallback echo = tool(context.getBean(ToolCallbackProvider.class), "echo");
			assertThat(echo.call("{\"text\":\"hello\"}")).contains("echo: hello");
			ChildSnapshot child = context.getBean(Supervisor.class).snapshot("fixture").orElseThrow();
			assertThat(child.kind()).isEqualTo(ChildKind.MCP);
			assertThat(child.state()).isEqualTo(ChildState.RUNNING);
			ChildrenEndpoint.ChildDescriptor described = context.getBean(ChildrenEndpoint.class).child("fixture");
			assertThat(described.details()).containsEntry("mcp",
					Map.of("transport", "stdio", "session", "initialized", "tools", 2));
		});
	}

	@Test
	void afterKill9OfTheServerACallFailsFastNamingTheChildThenTheSessionIsInitialisedAgain() {
		runner()
			.withPropertyValues("supervisor.children.fixture.backoff.initial=3s",
					"supervisor.children.fixture.max-restarts=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpSyncClient client = client(context.getBean("mcpSyncClients", List.class));
				long serverPid = Long.parseLong(text(client.callTool(call("pid"))));
				Supervisor supervisor = context.getBean(Supervisor.class);
				ChildSnapshot before = supervisor.snapshot("fixture").orElseThrow();
				new ProcessBuilder("kill", "-9", Long.toString(serverPid)).start().waitFor();
				await("the child is waiting for its restart").atMost(DEADLINE)
					.until(() -> supervisor.snapshot("fixture").orElseThrow().state() == ChildState.BACKOFF);
				long asked = System.nanoTime();
				assertThatThrownBy(() -> client.callTool(call("pid")))
					.satisfies((ex) -> assertThat(messages(ex)).contains("MCP server 'fixture'").contains("BACKOFF"));
				assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(5));
				await("the restarted server answers").atMost(DEADLINE).ignoreExceptions().until(() -> {
					long pid = Long.parseLong(text(client.callTool(call("pid"))));
					return pid != serverPid;
				});
				assertThat(supervisor.snapshot("fixture").orElseThrow().startedAt()).isAfter(before.startedAt());
				assertThat(client.isInitialized()).isTrue();
			});
	}

	@Test
	void aCallWaitingForItsServersExitLearnsOfItFromTheExitNotFromTheNextTick() {
		runner()
			.withPropertyValues("supervisor.tick-interval=10s", "supervisor.children.fixture.backoff.initial=20s",
					"supervisor.children.fixture.max-restarts=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<?> connections = context.getBean("tetherMcpConnections", List.class);
				ChildTransport transport = (ChildTransport) ((NamedClientMcpTransport) connections.get(0)).transport();
				McpSyncClient client = client(context.getBean("mcpSyncClients", List.class));
				ProcessHandle server = ProcessHandle.of(Long.parseLong(text(client.callTool(call("pid")))))
					.orElseThrow();
				Instant process = context.getBean(Supervisor.class).snapshot("fixture").orElseThrow().startedAt();
				AtomicReference<ChildSnapshot> seen = new AtomicReference<>();
				// Why a thread waiting before the kill: what a call does once its
				// server's pipe broke, and the wait this test is about.
				Thread waiting = new Thread(() -> seen.set(transport.awaitEnded(process, Duration.ofSeconds(5))));
				waiting.start();
				await().pollDelay(Duration.ZERO)
					.pollInterval(Duration.ofMillis(1))
					.atMost(DEADLINE)
					.until(() -> waiting.getState() == Thread.State.TIMED_WAITING);
				long killed = System.nanoTime();
				server.destroyForcibly();
				waiting.join(DEADLINE.toMillis());
				// Why below 800 ms: woken by the tick alone, the wait would end at its
				// own bound of a second (the tick is 10 s away here).
				assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(Duration.ofMillis(800));
				assertThat(seen.get().state()).isEqualTo(ChildState.BACKOFF);
			});
	}

	@Test
	void contextCloseClosesEverySessionAndStopsEveryServerAndLeavesNoThread() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(text(client(context.getBean("mcpSyncClients", List.class)).callTool(call("pid")))).isNotBlank();
			assertThat(readerThreads()).isNotEmpty();
		});
		await("no reader thread left").atMost(DEADLINE).until(() -> readerThreads().isEmpty());
		await("no tick thread left").atMost(DEADLINE)
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((t) -> t.getName().equals("supervisor-tick")));
		await("no server left").atMost(DEADLINE)
			.until(() -> LiveProcesses.withEnvironmentEntry("TETHER_INSTALLATION=" + this.installation).isEmpty());
	}

	@Test
	void aNameConfiguredUnderTetherAndSpringAisStdioConnectionsFailsStartupNamingBoth() {
		runner().withPropertyValues("spring.ai.mcp.client.stdio.connections.fixture.command=npx").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains("supervisor.children.fixture.mcp.transport")
				.contains("spring.ai.mcp.client.stdio.connections.fixture");
		});
	}

	static ToolCallback tool(ToolCallbackProvider provider, String name) {
		return Arrays.stream(provider.getToolCallbacks())
			.filter((callback) -> callback.getToolDefinition().name().endsWith(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError(
					"no tool " + name + " among " + Arrays.toString(provider.getToolCallbacks())));
	}

	static McpSyncClient client(List<?> clients) {
		return clients.stream().map(McpSyncClient.class::cast).findFirst().orElseThrow();
	}

	static McpSchema.CallToolRequest call(String tool) {
		return McpSchema.CallToolRequest.builder().name(tool).arguments(Map.of()).build();
	}

	static String text(McpSchema.CallToolResult result) {
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

	static String messages(Throwable failure) {
		StringBuilder all = new StringBuilder();
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			all.append(cause.getMessage()).append('\n');
		}
		return all.toString();
	}

	static List<String> readerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.map(Thread::getName)
			.filter((name) -> name.startsWith("tether-mcp-"))
			.toList();
	}

}
