package dev.tether.supervisor.springai;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.mcp.McpToolFilter;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.mcp.client.common.autoconfigure.configurer.McpSyncClientConfigurer;
import org.springframework.ai.mcp.client.common.autoconfigure.properties.McpClientCommonProperties;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.context.ApplicationListener;
import reactor.core.scheduler.Schedulers;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;

/**
 * The MCP servers the application can do without ({@code mcp.required: false}): Tether
 * builds their clients (as Spring AI builds its own: its client name, request timeout and
 * customizers), initialises each in the background once its child is {@code RUNNING}, and
 * offers the tools of those with a live session. Why not Spring AI's clients: Spring AI
 * initialises each while the context starts, and fails it when one cannot; its tool
 * provider lists every client's tools, and fails when one cannot.
 */
final class OptionalMcpServers implements ToolCallbackProvider, ApplicationListener<McpToolsChangedEvent> {

	private static final Logger logger = LoggerFactory.getLogger(OptionalMcpServers.class);

	private static final Duration RETRY = Duration.ofSeconds(1);

	private final Map<String, Server> servers = new ConcurrentHashMap<>();

	private final McpToolFilter filter;

	private final McpToolNamePrefixGenerator prefix;

	OptionalMcpServers(Map<String, ChildTransport> transports, McpClientCommonProperties common,
			McpSyncClientConfigurer configurer, @Nullable McpToolFilter filter,
			@Nullable McpToolNamePrefixGenerator prefix) {
		this.filter = (filter != null) ? filter : (connection, tool) -> true;
		this.prefix = (prefix != null) ? prefix : McpToolNamePrefixGenerator.noPrefix();
		transports.forEach((name, transport) -> {
			McpSchema.Implementation info = McpSchema.Implementation
				.builder(common.getName() + " - " + name, common.getVersion())
				.title(name)
				.build();
			McpClient.SyncSpec spec = McpClient.sync(transport)
				.clientInfo(info)
				.requestTimeout(common.getRequestTimeout());
			this.servers.put(name, new Server(transport, configurer.configure(name, spec).build()));
		});
	}

	@Nullable McpSyncClient client(String name) {
		Server server = this.servers.get(name);
		return (server != null) ? server.client : null;
	}

	List<McpSyncClient> clients() {
		return this.servers.values().stream().map(Server::client).toList();
	}

	/**
	 * After a tick: a server whose child runs a process that no session was tried with is
	 * initialised, in the background.
	 */
	void observed(ChildSnapshot child) {
		Server server = this.servers.get(child.name());
		Instant process = child.startedAt();
		if (server == null || child.state() != ChildState.RUNNING || process == null || process.equals(server.triedFor)
				|| Instant.now().isBefore(server.retryAt)) {
			return;
		}
		server.triedFor = process;
		Schedulers.boundedElastic().schedule(() -> {
			try {
				server.client.initialize();
				logger.info("MCP server '{}' (optional) is initialised: its tools are offered", child.name());
			}
			catch (RuntimeException ex) {
				// Why tried again while the same process runs: a process that has just
				// replaced a crashed one may not answer yet, and waiting for its next
				// process would leave its tools out for as long as it runs.
				if (!process.equals(server.failedFor)) {
					logger.warn(
							"MCP server '{}' (optional) could not be initialised; its tools are not offered, and "
									+ "it is tried again every {} while it runs: {}",
							child.name(), RETRY, ex.getMessage());
				}
				server.failedFor = process;
				server.retryAt = Instant.now().plus(RETRY);
				server.triedFor = null;
			}
		});
	}

	/** The tools of each server whose child's current process has a session. */
	@Override
	public ToolCallback[] getToolCallbacks() {
		List<ToolCallback> all = new ArrayList<>();
		this.servers.forEach((name, server) -> {
			ChildSnapshot child = server.transport.snapshot();
			if (child.state() != ChildState.RUNNING || !server.client.isInitialized()
					|| !server.transport.connectedTo(child)) {
				return;
			}
			Tools known = server.tools;
			if (known == null || !Objects.equals(known.process(), child.startedAt())) {
				try {
					known = new Tools(child.startedAt(),
							SyncMcpToolCallbackProvider.builder()
								.mcpClients(server.client)
								.toolFilter(this.filter)
								.toolNamePrefixGenerator(this.prefix)
								.build()
								.getToolCallbacks());
					server.tools = known;
				}
				catch (RuntimeException ex) {
					logger.debug("Tools of MCP server '{}' could not be listed", name, ex);
					return;
				}
			}
			all.addAll(List.of(known.callbacks()));
		});
		return all.toArray(ToolCallback[]::new);
	}

	/** A server said its tools changed: they are listed again. */
	@Override
	public void onApplicationEvent(McpToolsChangedEvent event) {
		Server server = this.servers.get(event.getConnectionName());
		if (server != null) {
			server.tools = null;
		}
	}

	private static final class Server {

		private final ChildTransport transport;

		private final McpSyncClient client;

		/** The process an initialisation is tried with, or was and succeeded. */
		private volatile @Nullable Instant triedFor;

		/** The process an initialisation failed with last. */
		private volatile @Nullable Instant failedFor;

		/** Before this, no initialisation is tried again. */
		private volatile Instant retryAt = Instant.MIN;

		private volatile @Nullable Tools tools;

		Server(ChildTransport transport, McpSyncClient client) {
			this.transport = transport;
			this.client = client;
		}

		McpSyncClient client() {
			return this.client;
		}

	}

	private record Tools(@Nullable Instant process, ToolCallback[] callbacks) {
	}

}
