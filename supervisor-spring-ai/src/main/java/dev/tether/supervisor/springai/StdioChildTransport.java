package dev.tether.supervisor.springai;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpTransportException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildStdio;
import dev.tether.supervisor.Supervisor;

/**
 * MCP over a supervised child's stdin and stdout ({@link ChildStdio}): one message a
 * line, as the MCP Java SDK's own stdio transport writes them. One thread per live
 * connection reads the child's stdout, in order; its stderr goes to the child's output
 * sinks.
 */
final class StdioChildTransport extends ChildTransport {

	private static final Logger logger = LoggerFactory.getLogger(StdioChildTransport.class);

	private final Supervisor supervisor;

	private final McpJsonMapper json = McpJsonDefaults.getMapper();

	/**
	 * How long a process may run on after its stdout ended before it is restarted: its
	 * exit, if it is exiting, is seen by then.
	 */
	private static final Duration EXIT_GRACE = Duration.ofSeconds(1);

	private final int maxMessageSize;

	private volatile @Nullable Connection connection;

	StdioChildTransport(String name, Supervisor supervisor, Duration startupTimeout, DataSize maxMessageSize) {
		super(name, supervisor, startupTimeout);
		this.supervisor = supervisor;
		this.maxMessageSize = (int) Math.min(Integer.MAX_VALUE - 8, maxMessageSize.toBytes());
	}

	@Override
	McpTransportType type() {
		return McpTransportType.STDIO;
	}

	@Override
	Mono<Void> open(ChildSnapshot child, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		ChildStdio stdio = this.supervisor.stdio(name()).orElse(null);
		if (stdio == null || child.adopted()) {
			return Mono.error(new McpTransportException("MCP server '" + name() + "' has no stdio pipes: "
					+ (child.adopted() ? "it was adopted from a previous run, whose pipes ended with it; restart it"
							: "it is not a stdio child")));
		}
		Connection current = this.connection;
		if (current != null && current.stdio == stdio) {
			if (current.ended) {
				return Mono.error(down(child));
			}
			current.handler = handler;
			return Mono.empty();
		}
		if (current != null) {
			current.close();
		}
		Connection opened = new Connection(stdio, Objects.requireNonNull(child.startedAt()), handler);
		this.connection = opened;
		opened.start();
		return Mono.empty();
	}

	@Override
	Mono<Void> send(JSONRPCMessage message) {
		Connection current = this.connection;
		if (current == null) {
			return Mono.error(down(snapshot()));
		}
		return Mono.fromRunnable(() -> current.write(message));
	}

	@Override
	boolean live() {
		Connection current = this.connection;
		return current != null && !current.ended;
	}

	@Override
	Mono<Void> closeConnection() {
		return Mono.fromRunnable(() -> {
			Connection current = this.connection;
			this.connection = null;
			if (current != null) {
				current.close();
			}
		});
	}

	/** One process's pipes, and the thread that reads its replies. */
	private final class Connection {

		private final ChildStdio stdio;

		private final Thread reader;

		/** The start of the process whose pipes these are. */
		private final Instant process;

		private final StrayLines stray;

		private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;

		private volatile boolean ended;

		private volatile boolean closing;

		/**
		 * The ids of the requests sent and not yet answered: answered with an error if
		 * the process ends first.
		 */
		private final Set<Object> pending = ConcurrentHashMap.newKeySet();

		Connection(ChildStdio stdio, Instant process, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
			this.stdio = stdio;
			this.process = process;
			this.stray = new StrayLines(name(), (line) -> StdioChildTransport.this.supervisor.output(name())
				.ifPresent((output) -> output.writeStdoutLine(line)));
			this.handler = handler;
			this.reader = new Thread(this::read, "tether-mcp-" + name());
			// Why a daemon: a connection must never keep the JVM alive; the child dies
			// with the JVM by design.
			this.reader.setDaemon(true);
		}

		void start() {
			this.reader.start();
		}

		private void read() {
			String reason = "closed its stdout";
			boolean broken = false;
			try (BoundedLineReader lines = new BoundedLineReader(this.stdio.stdout(),
					StdioChildTransport.this.maxMessageSize)) {
				byte[] line;
				while ((line = lines.next()) != null) {
					deliver(line);
				}
			}
			catch (BoundedLineReader.TooLongException ex) {
				reason = "broke the protocol: it wrote " + ex.getMessage() + " (mcp.max-message-size)";
				broken = true;
			}
			catch (IOException ex) {
				if (!this.closing) {
					logger.debug("Reading the stdout of MCP server '{}' failed", name(), ex);
				}
			}
			finally {
				this.ended = true;
			}
			// Why answered here: a call waiting for a reply that can never come would
			// wait for the client's request timeout; it fails now, naming the child.
			List<Object> waiting = List.copyOf(this.pending);
			if (!waiting.isEmpty()) {
				String failure = unanswered(reason, broken);
				for (Object id : waiting) {
					this.pending.remove(id);
					handle(McpSchema.JSONRPCResponse.error(id,
							new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR, failure)));
				}
			}
			if (!this.closing) {
				ended(reason, broken);
			}
		}

		/**
		 * Why calls waiting for an answer fail: a process that ends closes its stdout a
		 * moment before the supervisor sees its exit, and a caller (a required server's
		 * failed start, say) needs what the exit tells (the child's state, its last
		 * output), so an end of stdout waits up to {@link #EXIT_GRACE} for it.
		 */
		private String unanswered(String reason, boolean broken) {
			if (!broken && !this.closing) {
				ChildSnapshot child = awaitEnded(this.process, EXIT_GRACE);
				if (!this.process.equals(child.startedAt())) {
					return down(child).getMessage();
				}
			}
			return "MCP server '" + name() + "' (a supervised child) " + reason
					+ " before it answered; its session ends with its process";
		}

		/**
		 * The session is down: calls fail at once from now on, and a process that goes on
		 * without its session is restarted through the stop ladder.
		 */
		private void ended(String reason, boolean broken) {
			logger.info("MCP server '{}' {}; calls fail until it is RUNNING again", name(), reason);
			// Why a delay for an end of stdout: the process's exit closes its stdout too,
			// and is the supervisor's to see first (its exit status is the reason then);
			// a process still running after it has closed its stdout for good.
			Duration delay = broken ? Duration.ZERO : EXIT_GRACE;
			Schedulers.boundedElastic().schedule(() -> {
				if (StdioChildTransport.this.supervisor.restartFailed(name(), this.process,
						"ended its MCP session: it " + reason)) {
					logger.warn("MCP server '{}' is restarted: its process runs on without a session", name());
				}
			}, delay.toMillis(), TimeUnit.MILLISECONDS);
		}

		private void deliver(byte[] line) {
			JSONRPCMessage message;
			try {
				message = McpSchema.deserializeJsonRpcMessage(StdioChildTransport.this.json,
						new String(line, StandardCharsets.UTF_8));
			}
			catch (IOException | RuntimeException ex) {
				// Why not fatal: a server may print a stray line to stdout; MCP's own
				// stdio transport skips it too.
				this.stray.received(line);
				return;
			}
			if (message instanceof McpSchema.JSONRPCResponse response) {
				this.pending.remove(response.id());
			}
			handle(message);
		}

		private void handle(JSONRPCMessage message) {
			this.handler.apply(Mono.just(message))
				.subscribe(null, (ex) -> logger.warn("MCP server '{}': a message was not handled", name(), ex));
		}

		void write(JSONRPCMessage message) {
			IOException failed;
			synchronized (this) {
				try {
					String text = StdioChildTransport.this.json.writeValueAsString(message);
					// Why: one message a line; JSON never needs a raw line break, so any
					// is escaped.
					text = text.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
					if (message instanceof McpSchema.JSONRPCRequest request) {
						this.pending.add(request.id());
					}
					OutputStream stdin = this.stdio.stdin();
					stdin.write((text + "\n").getBytes(StandardCharsets.UTF_8));
					stdin.flush();
					return;
				}
				catch (IOException ex) {
					failed = ex;
				}
			}
			// Why wait, holding no lock, as for a read (see unanswered): a process
			// that ended closes its stdin a moment before the supervisor sees its
			// exit, and its state and last output say more than the broken pipe.
			ChildSnapshot child = awaitEnded(this.process, EXIT_GRACE);
			McpTransportException ended = this.process.equals(child.startedAt()) ? new McpTransportException(
					"MCP server '" + name() + "' cannot be written to (its process ended): " + failed.getMessage(),
					failed) : down(child);
			if (ended.getCause() == null) {
				ended.initCause(failed);
			}
			throw ended;
		}

		void close() {
			this.closing = true;
			this.stdio.close();
			try {
				this.reader.join(Duration.ofSeconds(10).toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
