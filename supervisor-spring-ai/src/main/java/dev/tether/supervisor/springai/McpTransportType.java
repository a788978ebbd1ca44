package dev.tether.supervisor.springai;

import java.util.Locale;

/**
 * How Spring AI's MCP client talks to a supervised MCP server
 * ({@code supervisor.children.<name>.mcp.transport}).
 */
public enum McpTransportType {

	/** Over the child's stdin and stdout, which are pipes to the application. */
	STDIO,

	/** Streamable HTTP at {@code http://<probe-address>:<port><mcp.path>}. */
	STREAMABLE_HTTP,

	/**
	 * HTTP with server-sent events at {@code http://<probe-address>:<port>}, its SSE
	 * endpoint at {@code mcp.path}.
	 */
	SSE;

	/**
	 * The form used in configuration and in the endpoint: {@code stdio},
	 * {@code streamable-http} or {@code sse}.
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
