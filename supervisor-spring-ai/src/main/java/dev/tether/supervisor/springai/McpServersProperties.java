package dev.tether.supervisor.springai;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

import dev.tether.supervisor.boot.SupervisorSettingsGroup;

/**
 * The module's own settings under {@code supervisor.mcp.*}. The starter binds them with
 * every other {@code supervisor.*} key (they are listed in this module's
 * {@code META-INF/spring.factories}); {@link McpServersFile} reads them before the
 * configuration is bound.
 */
// Why the annotation on a class that is no bean: as on McpProperties, it makes the
// configuration metadata.
@ConfigurationProperties("supervisor.mcp")
public class McpServersProperties implements SupervisorSettingsGroup {

	/**
	 * A servers file in the format of Claude Desktop and of Spring AI's
	 * spring.ai.mcp.client.stdio.servers-configuration ({"mcpServers": {"<name>":
	 * {"command", "args", "env"}}}): each server is a supervised stdio MCP child of that
	 * name, as if declared under supervisor.children.
	 */
	private @Nullable Resource serversConfiguration;

	@Override
	public String key() {
		return "mcp";
	}

	public @Nullable Resource getServersConfiguration() {
		return this.serversConfiguration;
	}

	public void setServersConfiguration(@Nullable Resource serversConfiguration) {
		this.serversConfiguration = serversConfiguration;
	}

}
