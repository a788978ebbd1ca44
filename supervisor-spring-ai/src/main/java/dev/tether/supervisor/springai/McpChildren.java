package dev.tether.supervisor.springai;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.modelcontextprotocol.client.McpSyncClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.mcp.client.common.autoconfigure.NamedClientMcpTransport;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.boot.SupervisorStartup;
import dev.tether.supervisor.boot.actuate.ChildDetailsContributor;

/**
 * The supervised MCP servers, each with its transport: started when Spring AI's client
 * asks for its connections, told of each tick, described in the endpoint and in health,
 * and disconnected when the context closes.
 */
final class McpChildren implements ChildDetailsContributor, DisposableBean {

	private static final Logger logger = LoggerFactory.getLogger(McpChildren.class);

	private final Supervisor supervisor;

	private final SupervisorStartup startup;

	private final Map<String, ChildTransport> transports;

	private final ObjectProvider<List<McpSyncClient>> clients;

	/** The tools each server offered, counted once per process (its start). */
	private final Map<String, ToolCount> tools = new ConcurrentHashMap<>();

	McpChildren(Supervisor supervisor, SupervisorStartup startup, Map<String, ChildTransport> transports,
			ObjectProvider<List<McpSyncClient>> clients) {
		this.supervisor = supervisor;
		this.startup = startup;
		this.transports = Map.copyOf(transports);
		this.clients = clients;
	}

	/**
	 * Starts every MCP server, reconciling first (once), and hands their transports to
	 * Spring AI. Why here: Spring AI's client asks for its connections while the context
	 * refreshes, before the application is ready, and initialises them at once; a child
	 * started now is left as it is by the autostart at ready.
	 */
	List<NamedClientMcpTransport> connections() {
		List<NamedClientMcpTransport> connections = new ArrayList<>();
		this.transports.forEach((name, transport) -> {
			ChildSnapshot child = this.startup.start(name);
			logger.info("MCP server '{}' over {} is {}", name, transport.type().id(), child.state());
			connections.add(new NamedClientMcpTransport(name, transport));
		});
		return connections;
	}

	/** After each tick: each transport sees its child. */
	void ticked() {
		this.transports.forEach((name, transport) -> this.supervisor.snapshot(name).ifPresent(transport::observed));
	}

	@Override
	public Map<String, Object> details(ChildSnapshot child) {
		ChildTransport transport = this.transports.get(child.name());
		if (transport == null) {
			return Map.of();
		}
		McpSyncClient client = client(child.name());
		boolean initialized = client != null && client.isInitialized() && transport.connectedTo(child)
				&& child.state() == ChildState.RUNNING;
		Map<String, Object> mcp = new LinkedHashMap<>();
		mcp.put("transport", transport.type().id());
		mcp.put("session",
				initialized ? "initialized" : (child.state() == ChildState.RUNNING) ? "not-initialized" : "down");
		Integer count = (initialized && client != null) ? toolCount(child, client) : null;
		if (count != null) {
			mcp.put("tools", count);
		}
		return Map.of("mcp", mcp);
	}

	private @Nullable McpSyncClient client(String name) {
		List<McpSyncClient> all = this.clients.getIfAvailable(List::of);
		return all.stream().filter((client) -> name.equals(client.getClientInfo().title())).findFirst().orElse(null);
	}

	private @Nullable Integer toolCount(ChildSnapshot child, McpSyncClient client) {
		ToolCount known = this.tools.get(child.name());
		if (known != null && Objects.equals(known.process(), child.startedAt())) {
			return known.count();
		}
		try {
			int count = client.listTools().tools().size();
			this.tools.put(child.name(), new ToolCount(child.startedAt(), count));
			return count;
		}
		catch (RuntimeException ex) {
			logger.debug("Tools of MCP server '{}' could not be listed", child.name(), ex);
			return null;
		}
	}

	/**
	 * Ends every connection: each reading thread ends, and no session outlives the
	 * context.
	 */
	@Override
	public void destroy() {
		this.transports.values().forEach((transport) -> {
			try {
				transport.closeGracefully().block(Duration.ofSeconds(10));
			}
			catch (RuntimeException ex) {
				logger.warn("Connection to MCP server '{}' did not close cleanly", transport.name(), ex);
			}
		});
	}

	private record ToolCount(@Nullable Instant process, int count) {
	}

}
