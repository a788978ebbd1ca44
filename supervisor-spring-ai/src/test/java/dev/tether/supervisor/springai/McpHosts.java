package dev.tether.supervisor.springai;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.ai.mcp.client.common.autoconfigure.McpClientAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.McpToolCallbackAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.StdioTransportAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.tether.supervisor.boot.SupervisorAutoConfiguration;
import dev.tether.supervisor.boot.actuate.SupervisorEndpointAutoConfiguration;
import dev.tether.supervisor.boot.actuate.SupervisorHealthAutoConfiguration;
import dev.tether.supervisor.testsupport.JavaCommand;

/**
 * Applications that host supervised MCP servers, for tests: Tether, Spring AI's MCP
 * client and this module.
 */
final class McpHosts {

	private McpHosts() {
	}

	static ApplicationContextRunner runner(Path state, String installation) {
		return new ApplicationContextRunner().withConfiguration(autoConfigurations())
			.withPropertyValues(properties(state, installation));
	}

	/** Tether, Spring AI's MCP client and this module, in the order Boot applies them. */
	static AutoConfigurations autoConfigurations() {
		return AutoConfigurations.of(SupervisorAutoConfiguration.class, TetherMcpAutoConfiguration.class,
				StdioTransportAutoConfiguration.class, McpClientAutoConfiguration.class,
				McpToolCallbackAutoConfiguration.class, SupervisorEndpointAutoConfiguration.class,
				SupervisorHealthAutoConfiguration.class);
	}

	static String[] properties(Path state, String installation) {
		return new String[] { "supervisor.state-directory=" + state, "supervisor.installation-id=" + installation,
				"supervisor.tick-interval=50ms", "management.endpoints.web.exposure.include=children" };
	}

	/**
	 * The properties of a stdio MCP child that runs {@link McpFixtureServer} under
	 * {@code sh -c} (so it is a grandchild of the shepherd), failing when the server is
	 * killed.
	 */
	static String[] stdioFixture(String name) {
		List<String> properties = new ArrayList<>();
		properties.add("supervisor.children." + name + ".command[0]=sh");
		properties.add("supervisor.children." + name + ".command[1]=-c");
		properties.add("supervisor.children." + name + ".command[2]=" + shell(JavaCommand.main(McpFixtureServer.class))
				+ "; exit $?");
		properties.add("supervisor.children." + name + ".mcp.transport=stdio");
		return properties.toArray(String[]::new);
	}

	static String shell(List<String> command) {
		return command.stream().map((word) -> "'" + word.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
	}

}
