package dev.tether.supervisor.springai;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The MCP settings of supervised children: {@code supervisor.children.<name>.mcp.*}, each
 * of which may also be set once under {@code supervisor.defaults.mcp.*}. The rest of a
 * child's settings are the starter's, which ignores these.
 */
@ConfigurationProperties("supervisor")
public class TetherMcpProperties {

	/** The children, by name; only their {@code mcp} settings are read here. */
	private Map<String, Child> children = new LinkedHashMap<>();

	/** What a child that does not set an MCP setting inherits. */
	private Child defaults = new Child();

	public Map<String, Child> getChildren() {
		return this.children;
	}

	public void setChildren(Map<String, Child> children) {
		this.children = children;
	}

	public Child getDefaults() {
		return this.defaults;
	}

	public void setDefaults(Child defaults) {
		this.defaults = defaults;
	}

	/**
	 * One child's MCP settings over the defaults: its transport, or {@code null} when it
	 * is not an MCP server.
	 */
	@Nullable McpTransportType transport(String name) {
		Child child = this.children.get(name);
		McpTransportType own = (child != null) ? child.getMcp().getTransport() : null;
		return (own != null) ? own : this.defaults.getMcp().getTransport();
	}

	/** One child's MCP path over the defaults. */
	String path(String name) {
		Child child = this.children.get(name);
		String own = (child != null) ? child.getMcp().getPath() : null;
		String inherited = this.defaults.getMcp().getPath();
		return (own != null) ? own : (inherited != null) ? inherited : Mcp.DEFAULT_PATH;
	}

	/** A child's settings as seen here. */
	public static class Child {

		private Mcp mcp = new Mcp();

		public Mcp getMcp() {
			return this.mcp;
		}

		public void setMcp(Mcp mcp) {
			this.mcp = mcp;
		}

	}

	/** How Spring AI's MCP client reaches the child. */
	public static class Mcp {

		static final String DEFAULT_PATH = "/mcp";

		/**
		 * How the MCP client talks to the child: stdio (its stdin and stdout),
		 * streamable-http or sse (its port). Unset: the child is not handed to the MCP
		 * client.
		 */
		private @Nullable McpTransportType transport;

		/**
		 * The HTTP path of the MCP endpoint (streamable-http), or of the SSE endpoint
		 * (sse).
		 */
		private @Nullable String path;

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

}
