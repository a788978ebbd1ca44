package dev.tether.supervisor.springai;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

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

	static final DataSize DEFAULT_MAX_MESSAGE_SIZE = DataSize.ofMegabytes(16);

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

	/**
	 * Whether the application needs the server: a required server that cannot start or
	 * initialise fails startup; an optional one never blocks or fails it, and its tools
	 * are offered while it runs and is initialised.
	 */
	private boolean required = true;

	/**
	 * The longest message a stdio server may write (one line): a longer one breaks the
	 * protocol, ends the session and restarts the server.
	 */
	private DataSize maxMessageSize = DEFAULT_MAX_MESSAGE_SIZE;

	/**
	 * How often an MCP ping is sent over the live session (tools/list to a server without
	 * ping), never while a call is in flight. Unset: no ping.
	 */
	private @Nullable Duration ping;

	/**
	 * How many MCP pings in a row may fail before the server is restarted.
	 */
	private int pingFailureThreshold = 3;

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

	public boolean isRequired() {
		return this.required;
	}

	public void setRequired(boolean required) {
		this.required = required;
	}

	public @Nullable Duration getPing() {
		return this.ping;
	}

	public void setPing(@Nullable Duration ping) {
		this.ping = ping;
	}

	public int getPingFailureThreshold() {
		return this.pingFailureThreshold;
	}

	public void setPingFailureThreshold(int pingFailureThreshold) {
		this.pingFailureThreshold = pingFailureThreshold;
	}

	public DataSize getMaxMessageSize() {
		return this.maxMessageSize;
	}

	public void setMaxMessageSize(DataSize maxMessageSize) {
		this.maxMessageSize = maxMessageSize;
	}

}
