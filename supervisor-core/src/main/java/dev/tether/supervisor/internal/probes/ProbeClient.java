package dev.tether.supervisor.internal.probes;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Probes ports on a loopback address (127.0.0.1, or {@code ::1} where a child names it)
 * without a thread: {@link #send} opens a non-blocking connection, and each {@link #poll}
 * moves every probe in flight on as far as it can go without waiting (connected, request
 * written, status line read), and fails those past their timeout. The caller polls on its
 * own schedule (the supervision tick); a result comes with the first poll after the
 * answer. Why not the JDK's HTTP client: it cost about a millisecond of CPU and eight
 * threads for 500 probes a second; this costs a few system calls a probe, and no thread
 * at all.
 */
public final class ProbeClient implements AutoCloseable {

	private static final Pattern STATUS_LINE = Pattern.compile("^HTTP/\\d(?:\\.\\d)? (\\d{3})");

	/** The most of an answer read: its status line is all a probe looks at. */
	private static final int ANSWER_BYTES = 512;

	private final Set<Probe> inFlight = new HashSet<>();

	/** Each probe address, parsed once. Guarded by this. */
	private final Map<String, InetAddress> addresses = new HashMap<>();

	private @Nullable Selector selector;

	private boolean closed;

	/**
	 * Sends a probe of {@code port}: a {@code GET} of {@code path} (passing on a 2xx or
	 * 3xx status; redirects are not followed), or, with no path, a TCP connection.
	 * {@code result} is called once, by a later {@link #poll} (or by this call, when the
	 * connection is refused or made at once), holding no lock of this client.
	 * @param address the loopback address the child listens on, as an IP address (a
	 * child's {@code probe-address}, checked to be one): {@code 127.0.0.1} or {@code ::1}
	 */
	public void send(String address, int port, @Nullable String path, Duration timeout, long nowNanos,
			Consumer<Outcome> result) {
		Outcome immediate;
		try {
			SocketChannel channel = SocketChannel.open();
			synchronized (this) {
				immediate = start(new Probe(channel, address(address), port, path, nowNanos + timeout.toNanos(),
						timeout, result));
			}
		}
		catch (IOException ex) {
			immediate = new Outcome(false, describe(ex));
		}
		if (immediate != null) {
			result.accept(immediate);
		}
	}

	/** Parses an IP address once. Must hold this. */
	private InetAddress address(String literal) throws IOException {
		InetAddress address = this.addresses.get(literal);
		if (address == null) {
			// Why no lookup: the address was checked to be an IP address, which is
			// parsed, never resolved.
			address = InetAddress.getByName(literal);
			this.addresses.put(literal, address);
		}
		return address;
	}

	private @Nullable Outcome start(Probe probe) {
		if (this.closed) {
			return finish(probe, new Outcome(false, "the supervisor is closed"));
		}
		try {
			if (this.selector == null) {
				this.selector = Selector.open();
			}
			SocketChannel channel = probe.channel;
			channel.configureBlocking(false);
			// Why finishConnect at once: on loopback the handshake is done within the
			// connect call, even where the call says it is in progress.
			boolean connected = channel.connect(new InetSocketAddress(probe.address, probe.port))
					|| channel.finishConnect();
			if (connected && probe.path == null) {
				// Why not registered: a connection made at once is the whole TCP probe,
				// and a channel never registered is closed at once, where a registered
				// one waits for the selector to let it go.
				return finish(probe, passed(probe));
			}
			channel.register(this.selector, connected ? 0 : SelectionKey.OP_CONNECT, probe);
			this.inFlight.add(probe);
			return connected ? advance(probe, true) : null;
		}
		catch (IOException ex) {
			return finish(probe, new Outcome(false, describe(ex)));
		}
	}

	/** Moves every probe in flight on, and calls the results that came; never waits. */
	public void poll(long nowNanos) {
		List<Completed> completed = new ArrayList<>();
		synchronized (this) {
			if (this.selector == null || this.inFlight.isEmpty()) {
				return;
			}
			try {
				this.selector.selectNow();
			}
			catch (IOException ex) {
				// Why go on: an interrupted selection is retried at the next poll; the
				// timeouts below still apply.
			}
			for (SelectionKey key : this.selector.selectedKeys()) {
				Probe probe = (Probe) key.attachment();
				Outcome outcome = key.isValid() ? advance(probe, key.isConnectable()) : null;
				if (outcome != null) {
					completed.add(new Completed(probe, outcome));
				}
			}
			this.selector.selectedKeys().clear();
			for (Probe probe : List.copyOf(this.inFlight)) {
				if (nowNanos - probe.deadline >= 0) {
					completed.add(new Completed(probe,
							finish(probe, new Outcome(false, "no answer within " + probe.timeout))));
				}
			}
		}
		completed.forEach((done) -> done.probe.result.accept(done.outcome));
	}

	/**
	 * One step: the connection, then the request, then the status line. @return the
	 * outcome once there is one
	 */
	private @Nullable Outcome advance(Probe probe, boolean connecting) {
		SocketChannel channel = probe.channel;
		try {
			if (connecting && !channel.finishConnect()) {
				return null;
			}
			if (probe.path == null) {
				return finish(probe, passed(probe));
			}
			if (connecting) {
				// Why one write: a request of a few dozen bytes always fits an empty
				// socket buffer.
				channel.write(ByteBuffer.wrap(("GET " + probe.path + " HTTP/1.1\r\nHost: " + host(probe)
						+ "\r\nUser-Agent: tether-probe\r\nConnection: close\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII)));
				channel.keyFor(this.selector).interestOps(SelectionKey.OP_READ);
				return null;
			}
			return read(probe);
		}
		catch (IOException ex) {
			return finish(probe, new Outcome(false, describe(ex)));
		}
	}

	private static Outcome passed(Probe probe) {
		return new Outcome(true, "port " + probe.port + " accepts connections");
	}

	/** The {@code Host} header's value: an IPv6 address in brackets, then the port. */
	private static String host(Probe probe) {
		String address = probe.address.getHostAddress();
		return ((probe.address instanceof Inet6Address) ? "[" + address + "]" : address) + ":" + probe.port;
	}

	private @Nullable Outcome read(Probe probe) throws IOException {
		int read = probe.channel.read(probe.answer);
		String answer = new String(probe.answer.array(), 0, probe.answer.position(), StandardCharsets.ISO_8859_1);
		int lineEnd = answer.indexOf('\n');
		if (lineEnd < 0 && read >= 0 && probe.answer.hasRemaining()) {
			return null;
		}
		Matcher status = STATUS_LINE.matcher(answer);
		if (!status.find()) {
			return finish(probe, new Outcome(false,
					(answer.isEmpty()) ? "the connection was closed without an answer" : "not an HTTP answer"));
		}
		int code = Integer.parseInt(status.group(1));
		return finish(probe, new Outcome(code >= 200 && code < 400, "HTTP " + code));
	}

	private Outcome finish(Probe probe, Outcome outcome) {
		this.inFlight.remove(probe);
		try {
			probe.channel.close();
		}
		catch (IOException ex) {
			// Nothing was left to send on it: a failed close loses nothing.
		}
		return outcome;
	}

	private static String describe(IOException ex) {
		if (ex instanceof ConnectException) {
			return "connection refused";
		}
		return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
	}

	/** Fails every probe in flight; later probes fail at once. */
	@Override
	public void close() {
		List<Completed> completed = new ArrayList<>();
		synchronized (this) {
			this.closed = true;
			for (Probe probe : List.copyOf(this.inFlight)) {
				completed.add(new Completed(probe, finish(probe, new Outcome(false, "the supervisor is closed"))));
			}
			if (this.selector != null) {
				try {
					this.selector.close();
				}
				catch (IOException ex) {
					// Its channels are closed above; nothing is lost.
				}
			}
		}
		completed.forEach((done) -> done.probe.result.accept(done.outcome));
	}

	/**
	 * A probe's outcome.
	 *
	 * @param passed whether it passed
	 * @param detail what it saw: {@code HTTP 200}, {@code connection refused},
	 * {@code no answer within PT1S}
	 */
	public record Outcome(boolean passed, String detail) {
	}

	private record Completed(Probe probe, Outcome outcome) {
	}

	/** One probe in flight; guarded by the client's monitor. */
	private static final class Probe {

		private final SocketChannel channel;

		private final InetAddress address;

		private final int port;

		private final @Nullable String path;

		private final long deadline;

		private final Duration timeout;

		private final Consumer<Outcome> result;

		private final ByteBuffer answer = ByteBuffer.allocate(ANSWER_BYTES);

		Probe(SocketChannel channel, InetAddress address, int port, @Nullable String path, long deadline,
				Duration timeout, Consumer<Outcome> result) {
			this.channel = channel;
			this.address = address;
			this.port = port;
			this.path = path;
			this.deadline = deadline;
			this.timeout = timeout;
			this.result = result;
		}

	}

}
