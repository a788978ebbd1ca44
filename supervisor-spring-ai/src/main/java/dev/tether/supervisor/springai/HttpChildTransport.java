package dev.tether.supervisor.springai;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpTransportException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ProbeResult;
import dev.tether.supervisor.Supervisor;

/**
 * MCP over HTTP to a supervised child's port on its {@code probe-address} (127.0.0.1
 * unless the child names {@code ::1}), through the MCP Java SDK's streamable-HTTP or SSE
 * client transport. Why a new SDK transport for each process: the SDK's transports keep
 * what the previous server told them (a session id, an SSE message endpoint), which a
 * restarted server does not know. A session is opened only to a port that the child's own
 * process tree holds ({@link Supervisor#checkPort}): never to another process that took
 * the port.
 */
final class HttpChildTransport extends ChildTransport {

	private final McpTransportType type;

	private final String address;

	private final int port;

	private final String path;

	private volatile @Nullable Delegate delegate;

	HttpChildTransport(String name, Supervisor supervisor, Duration startupTimeout, McpTransportType type,
			String address, int port, String path) {
		super(name, supervisor, startupTimeout);
		this.type = type;
		this.address = address;
		this.port = port;
		this.path = path;
	}

	@Override
	McpTransportType type() {
		return this.type;
	}

	/** The base URL of the child's server. */
	String baseUrl() {
		String host = this.address.contains(":") ? "[" + this.address + "]" : this.address;
		return "http://" + host + ":" + this.port;
	}

	@Override
	Mono<Void> open(ChildSnapshot child, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		// Why checked again at each session: readiness saw the child's tree hold the
		// port, but a child that closes its listener while it runs leaves the port to
		// whoever binds it next, and a session's first message carries the client's
		// identity and tool inputs.
		ProbeResult port = supervisor().checkPort(name()).orElse(null);
		if (port == null || !port.passed()) {
			return Mono.error(new McpTransportException("MCP server '" + name() + "' (a supervised child) is not "
					+ "connected to: " + ((port != null) ? port.detail() : "it is no longer supervised")));
		}
		Delegate current = this.delegate;
		if (current == null || !current.process.equals(child.startedAt())) {
			if (current != null) {
				current.transport.close();
			}
			current = new Delegate(newTransport(), child.startedAt());
			this.delegate = current;
		}
		return current.transport.connect(handler);
	}

	private McpClientTransport newTransport() {
		McpClientTransport transport = (this.type == McpTransportType.SSE)
				? HttpClientSseClientTransport.builder(baseUrl()).sseEndpoint(this.path).build()
				: HttpClientStreamableHttpTransport.builder(baseUrl()).endpoint(this.path).build();
		transport.setExceptionHandler((ex) -> clientExceptionHandler().accept(ex));
		return transport;
	}

	@Override
	Mono<Void> send(JSONRPCMessage message) {
		Delegate current = this.delegate;
		return (current != null) ? current.transport.sendMessage(message) : Mono.error(down(snapshot()));
	}

	@Override
	boolean live() {
		return this.delegate != null;
	}

	@Override
	Mono<Void> closeConnection() {
		return Mono.defer(() -> {
			Delegate current = this.delegate;
			this.delegate = null;
			return (current != null) ? current.transport.closeGracefully() : Mono.empty();
		});
	}

	private record Delegate(McpClientTransport transport, Instant process) {
	}

}
