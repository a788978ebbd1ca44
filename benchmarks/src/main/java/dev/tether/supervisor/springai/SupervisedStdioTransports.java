package dev.tether.supervisor.springai;

import java.time.Duration;

import io.modelcontextprotocol.spec.McpClientTransport;

import dev.tether.supervisor.Supervisor;

/**
 * The module's stdio transport over a supervised child, for the benchmarks: the one
 * Spring AI's client gets from {@code TetherMcpAutoConfiguration}, without an application
 * context around it.
 */
public final class SupervisedStdioTransports {

	private SupervisedStdioTransports() {
	}

	public static McpClientTransport of(String name, Supervisor supervisor, Duration startupTimeout) {
		return new StdioChildTransport(name, supervisor, startupTimeout);
	}

}
