package dev.tether.supervisor.springai;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.tether.supervisor.boot.ChildSettingsGroup;

/**
 * How Spring AI's MCP client reaches a child: {@code supervisor.children.<name>.mcp.*},
 * each of which may also be set once under {@code supervisor.defaults.mcp.*}. The starter
 * binds it with each child's other settings (it is listed in this module's
 * {@code META-INF/spring.factories}).
 */
// Why the annotation on a class that is no bean: it makes the configuration metadata of
// the settings, which IDEs and docs/configuration.md read, as the starter's do.
@ConfigurationProperties("supervisor.defaults.mcp")
public class McpProperties implements ChildSettingsGroup {

	static final String DEFAULT_PATH = "/mcp";

	/**
	 * How the MCP client talks to the child: stdio (its stdin and stdout),
	 * streamable-http or sse (its port). Unset: the child is not handed to the MCP
	 * client.
	 */
	private @Nullable McpTransportType transport;

	/**
	 * The HTTP path of the MCP endpoint (streamable-http), or of the SSE endpoint (sse).
	 */
	private @Nullable String path;

	@Override
	public String key() {
		return "mcp";
	}

	public @Nullable McpTransportType getTransport() {
		return this.transport;
	}

	public void setTransport(@Nullable McpTransportType transport) {
		this.transport = transport;
	}

	public @Nullable String getPath() {
		return this.path;
	}

	public void setPath(@Nullable String path) {
		this.path = path;
	}

}
