package dev.tether.supervisor.springai;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpTransportException;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;

/**
 * An MCP client transport to a supervised child. A session lives as long as one process
 * of the child: a call while the child is not {@code RUNNING} fails at once, naming the
 * child and its state; when a new process is {@code RUNNING} the client is told that its
 * session is gone ({@link McpTransportSessionNotFoundException}), and initialises a new
 * one over {@link #connect}, without the application doing anything.
 */
abstract class ChildTransport implements McpClientTransport {

	private static final Logger logger = LoggerFactory.getLogger(ChildTransport.class);

	/**
	 * How long a failure waits for the last output of a process that has ended. Why this
	 * long: its pipe ends within milliseconds of its exit unless a descendant holds it,
	 * and the failure is given either way.
	 */
	private static final Duration DRAIN = Duration.ofSeconds(1);

	private final String name;

	private final Supervisor supervisor;

	private final Duration startupTimeout;

	private final Object running = new Object();

	/** How many times the child's state may have changed; guarded by {@code running}. */
	private long changes;

	private volatile Consumer<Throwable> exceptionHandler = (ex) -> {
	};

	/**
	 * The process the current session talks to (its start), or {@code null} before the
	 * first connection.
	 */
	private volatile @Nullable Instant connected;

	/**
	 * The ids of the requests sent over the current session and not yet answered, with
	 * when each was sent.
	 */
	private final Map<Object, Long> inFlight = new ConcurrentHashMap<>();

	/** The process a new session was asked for, so that it is asked once. */
	private volatile @Nullable Instant renewedFor;

	ChildTransport(String name, Supervisor supervisor, Duration startupTimeout) {
		this.name = name;
		this.supervisor = supervisor;
		this.startupTimeout = startupTimeout;
	}

	String name() {
		return this.name;
	}

	Supervisor supervisor() {
		return this.supervisor;
	}

	abstract McpTransportType type();

	/** Opens the connection to the child's current process for a new session. */
	abstract Mono<Void> open(ChildSnapshot child, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler);

	/** Sends over the connection that {@link #open} made. */
	abstract Mono<Void> send(JSONRPCMessage message);

	/**
	 * Whether the connection still works (a stdio connection ends with its process's
	 * stdout).
	 */
	abstract boolean live();

	/** Ends the connection. */
	abstract Mono<Void> closeConnection();

	@Override
	public final Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return Mono.defer(() -> {
			ChildSnapshot child = awaitStarted();
			if (child.state() != ChildState.RUNNING || child.startedAt() == null) {
				return Mono.error(down(child));
			}
			this.connected = child.startedAt();
			this.inFlight.clear();
			return open(child, (message) -> handler.apply(message.doOnNext(this::answered)));
		});
	}

	@Override
	public final Mono<Void> sendMessage(JSONRPCMessage message) {
		return Mono.defer(() -> {
			ChildSnapshot child = snapshot();
			boolean up = child.state() == ChildState.RUNNING && this.connected != null
					&& this.connected.equals(child.startedAt()) && live();
			if (up && message instanceof JSONRPCRequest request) {
				this.inFlight.put(request.id(), System.nanoTime());
			}
			return up ? send(message).doOnError((ex) -> answered(message)) : Mono.error(down(child));
		});
	}

	private void answered(JSONRPCMessage message) {
		if (message instanceof JSONRPCResponse response) {
			this.inFlight.remove(response.id());
		}
		else if (message instanceof JSONRPCRequest request) {
			this.inFlight.remove(request.id());
		}
	}

	/**
	 * Whether a request sent over the current session waits for its answer, and was sent
	 * less than {@code timeout} ago: an older one was given up by the client.
	 */
	final boolean busy(Duration timeout) {
		long now = System.nanoTime();
		this.inFlight.values().removeIf((sent) -> now - sent >= timeout.toNanos());
		return !this.inFlight.isEmpty();
	}

	@Override
	public final Mono<Void> closeGracefully() {
		return closeConnection();
	}

	@Override
	public final void setExceptionHandler(Consumer<Throwable> handler) {
		this.exceptionHandler = Objects.requireNonNull(handler, "handler");
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
		return McpJsonDefaults.getMapper().convertValue(data, typeRef);
	}

	/**
	 * The child's state may have changed (an event, or a tick): wakes a call waiting for
	 * the supervisor to see its process start or end.
	 */
	final void changed() {
		synchronized (this.running) {
			this.changes++;
			this.running.notifyAll();
		}
	}

	/**
	 * The supervisor's view of the child after a tick: wakes a connection waiting for it
	 * to be ready, and asks the client for a new session when a new process is
	 * {@code RUNNING}.
	 */
	final void observed(ChildSnapshot child) {
		changed();
		Instant started = child.startedAt();
		Instant previous = this.connected;
		if (child.state() == ChildState.RUNNING && started != null && previous != null && !started.equals(previous)
				&& !started.equals(this.renewedFor)) {
			this.renewedFor = started;
			sessionEnded("restarted; a new session is initialised");
		}
	}

	/**
	 * What the client asked to be told of transport errors (each SDK transport underneath
	 * reports to it too).
	 */
	final Consumer<Throwable> clientExceptionHandler() {
		return this.exceptionHandler;
	}

	/**
	 * Tells the client that its session is gone: pending calls fail now, and the next one
	 * initialises again.
	 */
	final void sessionEnded(String why) {
		logger.info("MCP server '{}' {}", this.name, why);
		Consumer<Throwable> handler = this.exceptionHandler;
		// Why another thread: the client re-initialises at once, and neither the tick nor
		// a pipe reader may wait on it.
		Schedulers.boundedElastic()
			.schedule(() -> handler.accept(new McpTransportSessionNotFoundException(
					"MCP server '" + this.name + "' (a supervised child) " + why)));
	}

	final ChildSnapshot snapshot() {
		return this.supervisor.snapshot(this.name)
			.orElseThrow(() -> new McpTransportException("MCP server '" + this.name + "' is no longer supervised"));
	}

	/**
	 * The child once it has left {@code STARTING}, or as it is at its startup timeout.
	 */
	private ChildSnapshot awaitStarted() {
		return awaitWhile((child) -> child.state() == ChildState.STARTING, this.startupTimeout);
	}

	/**
	 * The child once {@code process} (its start time) is no longer its process, or as it
	 * is after {@code bound}.
	 */
	final ChildSnapshot awaitEnded(Instant process, Duration bound) {
		return awaitWhile((child) -> process.equals(child.startedAt()), bound);
	}

	/**
	 * The child once {@code condition} no longer holds, or as it is after {@code bound}.
	 */
	private ChildSnapshot awaitWhile(Predicate<ChildSnapshot> condition, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		long seen = changes();
		ChildSnapshot child = snapshot();
		while (condition.test(child)) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				break;
			}
			// Why the snapshot outside the monitor, and a count of changes: a snapshot
			// waits for the supervisor's lock, which the listener that wakes this must
			// not wait for; a change between a snapshot and the wait is counted, so it
			// is not missed.
			synchronized (this.running) {
				try {
					if (this.changes == seen) {
						// Why bounded: an event or the tick wakes this; the bound only
						// covers a change that came with neither.
						this.running.wait(Math.max(1, Math.min(left / 1_000_000, 1000)));
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					break;
				}
				seen = this.changes;
			}
			child = snapshot();
		}
		return child;
	}

	private long changes() {
		synchronized (this.running) {
			return this.changes;
		}
	}

	final McpTransportException down(ChildSnapshot child) {
		String error = (child.lastError() != null) ? " (" + child.lastError() + ")" : "";
		return new McpTransportException("MCP server '" + this.name + "' (a supervised child) is " + child.state()
				+ error + ": its session ends with its process, and calls fail until it is RUNNING again"
				+ lastOutput(child));
	}

	/**
	 * The last lines the child wrote to its log file ({@link LastOutput}), after a line
	 * break; empty when there are none. Of a child without a process, those it wrote
	 * before it ended, within {@link #DRAIN}.
	 */
	private String lastOutput(ChildSnapshot child) {
		boolean ended = switch (child.state()) {
			case BACKOFF, EXITED, FAILED, STOPPED -> true;
			case STARTING, RUNNING, STOPPING -> false;
		};
		List<String> lines = ended ? LastOutput.ofEnded(this.supervisor, this.name, DRAIN)
				: LastOutput.of(this.supervisor, this.name);
		return lines.isEmpty() ? "" : "; its last output:\n  " + String.join("\n  ", lines);
	}

	/** Whether a session was ever connected to the child's current process. */
	final boolean connectedTo(ChildSnapshot child) {
		return this.connected != null && this.connected.equals(child.startedAt());
	}

}
