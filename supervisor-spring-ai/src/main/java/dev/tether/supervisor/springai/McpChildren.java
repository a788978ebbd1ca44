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
import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.ai.mcp.client.common.autoconfigure.NamedClientMcpTransport;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

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
final class McpChildren implements ChildDetailsContributor, SmartLifecycle, DisposableBean {

	/**
	 * One above the supervision's phase ({@code Integer.MAX_VALUE - 4096} in the
	 * starter): stopped first, so that every session ends while its server still runs.
	 */
	static final int PHASE = Integer.MAX_VALUE - 4095;

	private static final Logger logger = LoggerFactory.getLogger(McpChildren.class);

	private final Supervisor supervisor;

	private final SupervisorStartup startup;

	private final Map<String, ChildTransport> transports;

	private final OptionalMcpServers optional;

	private final ObjectProvider<List<McpSyncClient>> clients;

	private final ApplicationEventPublisher events;

	private final McpPings pings;

	/** The process of each server whose tools Spring AI was told of. */
	private final Map<String, Instant> toolsOf = new ConcurrentHashMap<>();

	private volatile boolean running;

	/** The tools each server offered, counted once per process (its start). */
	private final Map<String, ToolCount> tools = new ConcurrentHashMap<>();

	McpChildren(Supervisor supervisor, SupervisorStartup startup, Map<String, ChildTransport> transports,
			OptionalMcpServers optional, McpPings pings, ObjectProvider<List<McpSyncClient>> clients,
			ApplicationEventPublisher events) {
		this.supervisor = supervisor;
		this.startup = startup;
		this.transports = Map.copyOf(transports);
		this.optional = optional;
		this.clients = clients;
		this.events = events;
		this.pings = pings;
	}

	OptionalMcpServers optional() {
		return this.optional;
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
			this.startup.start(name);
			// Why a fresh snapshot: the one the start returned may be older than the
			// process's exit, which the tick has seen meanwhile.
			ChildState state = this.supervisor.snapshot(name).map(ChildSnapshot::state).orElse(ChildState.STOPPED);
			boolean required = this.optional.client(name) == null;
			logger.info("MCP server '{}' over {} ({}) is {}", name, transport.type().id(),
					required ? "required" : "optional", state);
			if (required) {
				connections.add(new NamedClientMcpTransport(name, transport));
			}
		});
		return connections;
	}

	/** After each tick: each transport sees its child. */
	void ticked() {
		this.transports.forEach((name, transport) -> this.supervisor.snapshot(name).ifPresent((child) -> {
			transport.observed(child);
			this.optional.observed(child);
			// Why only once the context runs: the clients are Spring AI's beans, which a
			// look-up from the tick would otherwise create, on the tick's thread.
			if (this.running) {
				toolsMayHaveChanged(child);
				if (this.pings.enabled(name)) {
					this.pings.observed(child, transport, client(name));
				}
			}
		}));
	}

	/**
	 * A new process of a server may offer other tools (a new version, a renamed tool):
	 * Spring AI's tool providers are told, as by the server's own
	 * {@code notifications/tools/list_changed}, and list them again.
	 */
	private void toolsMayHaveChanged(ChildSnapshot child) {
		Instant process = child.startedAt();
		if (child.state() != ChildState.RUNNING || process == null) {
			return;
		}
		Instant previous = this.toolsOf.put(child.name(), process);
		if (previous != null && !previous.equals(process)) {
			this.events.publishEvent(new McpToolsChangedEvent(child.name(), List.of()));
		}
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
		// Why while it has no session: then the reason is in what it wrote last.
		List<String> lastOutput = initialized ? List.of() : LastOutput.of(this.supervisor, child.name());
		if (!lastOutput.isEmpty()) {
			mcp.put("lastOutput", lastOutput);
		}
		return Map.of("mcp", mcp);
	}

	private @Nullable McpSyncClient client(String name) {
		McpSyncClient optionalClient = this.optional.client(name);
		if (optionalClient != null) {
			return optionalClient;
		}
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

	@Override
	public void start() {
		this.running = true;
	}

	/**
	 * Closes every client's session while its server still runs (the supervision stops
	 * the servers after this phase): an HTTP session ends with its server's answer, not
	 * with a refused connection.
	 */
	@Override
	public void stop() {
		this.running = false;
		List<McpSyncClient> all = new ArrayList<>(this.clients.getIfAvailable(List::of));
		all.addAll(this.optional.clients());
		for (McpSyncClient client : all) {
			if (this.transports.containsKey(client.getClientInfo().title())) {
				try {
					client.closeGracefully();
				}
				catch (RuntimeException ex) {
					logger.debug("MCP client '{}' did not close cleanly", client.getClientInfo().title(), ex);
				}
			}
		}
		destroy();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
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
