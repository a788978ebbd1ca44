package dev.tether.supervisor.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.modelcontextprotocol.client.McpSyncClient;
import org.springframework.ai.mcp.client.common.autoconfigure.McpClientAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.McpToolCallbackAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.StdioTransportAutoConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.testsupport.JavaCommand;

/**
 * A second JVM: an application whose MCP server ({@link McpFixtureServer} under
 * {@code sh -c}) is run either by Tether ({@code tether}) or by Spring AI's own stdio
 * connection ({@code spring-ai}). Prints {@code READY <pid>} (the server's pid, from its
 * {@code pid} tool) once the application is ready, then waits to be killed.
 * <p>
 * Arguments:
 * {@code <state-directory> <installation-id> <tether|spring-ai> <fixture-run>}; the
 * server's environment carries {@code FIXTURE_RUN=<fixture-run>}.
 */
public final class McpHostJvm {

	private McpHostJvm() {
	}

	public static void main(String[] args) throws Exception {
		List<String> properties = new ArrayList<>(List.of("supervisor.state-directory=" + args[0],
				"supervisor.installation-id=" + args[1], "supervisor.tick-interval=50ms"));
		String server = McpHosts.shell(JavaCommand.main(McpFixtureServer.class)) + "; exit $?";
		if (args[2].equals("tether")) {
			properties.addAll(List.of(McpHosts.stdioFixture("fixture")));
			properties.add("supervisor.children.fixture.environment.FIXTURE_RUN=" + args[3]);
		}
		else {
			properties.add("spring.ai.mcp.client.stdio.connections.fixture.command=sh");
			properties.add("spring.ai.mcp.client.stdio.connections.fixture.args[0]=-c");
			properties.add("spring.ai.mcp.client.stdio.connections.fixture.args[1]=" + server);
			properties.add("spring.ai.mcp.client.stdio.connections.fixture.env.FIXTURE_RUN=" + args[3]);
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Host.class).web(WebApplicationType.NONE)
			.properties(properties.toArray(String[]::new))
			.run();
		McpSyncClient client = (McpSyncClient) context.getBean("mcpSyncClients", List.class).get(0);
		var result = client.callTool(io.modelcontextprotocol.spec.McpSchema.CallToolRequest.builder()
			.name("pid")
			.arguments(Map.of())
			.build());
		System.out
			.println("READY " + ((io.modelcontextprotocol.spec.McpSchema.TextContent) result.content().get(0)).text());
		System.out.flush();
		new CountDownLatch(1).await();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ SupervisorAutoConfiguration.class, TetherMcpAutoConfiguration.class,
			StdioTransportAutoConfiguration.class, McpClientAutoConfiguration.class,
			McpToolCallbackAutoConfiguration.class })
	static class Host {

	}

}
