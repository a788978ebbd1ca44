package dev.tether.supervisor.springai;

import java.time.Duration;

import io.modelcontextprotocol.spec.McpClientTransport;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;

/**
 * MCP client transports over supervised children, for a client built by hand (a child
 * added at runtime with {@link Supervisor#add}, a client outside Spring AI's
 * auto-configuration); the auto-configuration hands Spring AI the same transports for the
 * children configured with {@code mcp.transport}.
 */
public final class SupervisedMcpTransports {

	private SupervisedMcpTransports() {
	}

	/**
	 * A transport over the stdin and stdout of a {@link ChildSpec#stdio() stdio} child,
	 * which the supervisor starts (by {@code autostart} or {@link Supervisor#start}): a
	 * connect waits up to {@code startupTimeout} while the child is {@code STARTING}, and
	 * a message to a child that is down, or whose process changed since the connect,
	 * fails at once.
	 */
	public static McpClientTransport stdio(String name, Supervisor supervisor, Duration startupTimeout) {
		return new StdioChildTransport(name, supervisor, startupTimeout, McpProperties.DEFAULT_MAX_MESSAGE_SIZE);
	}

}
