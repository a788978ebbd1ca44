package dev.tether.supervisor.springai;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.scheduler.Schedulers;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;

/**
 * MCP-aware liveness ({@code mcp.ping}): an MCP {@code ping} over each live session once
 * a period, or {@code tools/list} for a server that does not implement {@code ping}; none
 * while a call is in flight (a busy server is alive); after
 * {@code mcp.ping-failure-threshold} failures in a row the process is restarted through
 * the stop ladder, with the reason.
 */
final class McpPings {

	private static final Logger logger = LoggerFactory.getLogger(McpPings.class);

	private final Supervisor supervisor;

	private final Map<String, Settings> settings;

	private final Map<String, State> states = new ConcurrentHashMap<>();

	/** The client's request timeout: a call older than it is no longer in flight. */
	private final Duration requestTimeout;

	McpPings(Supervisor supervisor, Map<String, Settings> settings, Duration requestTimeout) {
		this.supervisor = supervisor;
		this.settings = Map.copyOf(settings);
		this.requestTimeout = requestTimeout;
	}

	/** Whether the server has {@code mcp.ping}. */
	boolean enabled(String name) {
		return this.settings.containsKey(name);
	}

	/** After a tick: a ping is sent to the server if one is due. */
	void observed(ChildSnapshot child, ChildTransport transport, @Nullable McpSyncClient client) {
		Settings ping = this.settings.get(child.name());
		Instant process = child.startedAt();
		if (ping == null || client == null || process == null || child.state() != ChildState.RUNNING
				|| !client.isInitialized() || !transport.connectedTo(child)) {
			return;
		}
		State state = this.states.compute(child.name(),
				(name, known) -> (known != null && known.process.equals(process)) ? known : new State(process));
		long now = System.nanoTime();
		synchronized (state) {
			if (state.sending || transport.busy(this.requestTimeout)) {
				// Why pushed back: a call in flight shows the server alive; its answer is
				// what matters now.
				state.due = now + ping.period().toNanos();
				return;
			}
			if (state.due == 0) {
				state.due = now + ping.period().toNanos();
			}
			if (now - state.due < 0) {
				return;
			}
			state.sending = true;
		}
		Schedulers.boundedElastic().schedule(() -> send(child.name(), client, ping, state));
	}

	private void send(String name, McpSyncClient client, Settings ping, State state) {
		String failure = null;
		try {
			if (state.withoutPing) {
				client.listTools();
			}
			else {
				client.ping();
			}
		}
		catch (RuntimeException ex) {
			McpError error = mcpError(ex);
			Integer code = (error != null && error.getJsonRpcError() != null) ? error.getJsonRpcError().code() : null;
			if (!state.withoutPing && Integer.valueOf(McpSchema.ErrorCodes.METHOD_NOT_FOUND).equals(code)) {
				// Why no failure: a server that does not implement ping answered, which
				// is
				// all a ping asks; tools/list is sent instead from now on.
				logger.info("MCP server '{}' does not implement ping; tools/list is its liveness check", name);
				state.withoutPing = true;
			}
			else {
				failure = Objects.toString(ex.getMessage(), ex.getClass().getSimpleName());
			}
		}
		int failures;
		synchronized (state) {
			state.failures = (failure != null) ? state.failures + 1 : 0;
			failures = state.failures;
			state.due = System.nanoTime() + ping.period().toNanos();
			state.sending = false;
		}
		if (failure == null) {
			return;
		}
		if (failures < ping.failureThreshold()) {
			logger.info("MCP server '{}' failed its MCP ping {} of {} times: {}", name, failures,
					ping.failureThreshold(), failure);
			return;
		}
		this.supervisor.restartFailed(name, state.process,
				"failed its MCP ping " + failures + " times in a row; last: " + failure);
	}

	private static @Nullable McpError mcpError(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof McpError error) {
				return error;
			}
		}
		return null;
	}

	/** One server's ping settings. */
	record Settings(Duration period, int failureThreshold) {
	}

	/** The pings of one process. */
	private static final class State {

		private final Instant process;

		private long due;

		private boolean sending;

		private volatile boolean withoutPing;

		private int failures;

		State(Instant process) {
			this.process = process;
		}

	}

}
