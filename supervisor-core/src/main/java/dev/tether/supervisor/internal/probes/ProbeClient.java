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
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes ports on a loopback address (127.0.0.1, or {@code ::1} where a child names it)
 * on one thread for every probe: {@link #send} hands a probe over and returns at once;
 * the thread opens a non-blocking connection, waits in one {@link Selector} for every
 * probe in flight, moves each on as its socket allows (connected, request written, status
 * line read), and fails those past their timeout, counted from when its connection was
 * opened (never from a late poll). Why a thread of its own: a connect, a write and a
 * close are system calls that cost the caller (the supervision tick) half its time at
 * 1,000 probed children, and a connect to a full backlog may not complete at all; the
 * tick must do no I/O. Why one thread and no HTTP client: the JDK's cost about a
 * millisecond of CPU and eight threads for 500 probes a second; this costs a few system
 * calls a probe.
 */
public final class ProbeClient implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ProbeClient.class);

	private static final Pattern STATUS_LINE = Pattern.compile("^HTTP/\\d(?:\\.\\d)? (\\d{3})");

	/** The most of an answer read: its status line is all a probe looks at. */
	private static final int ANSWER_BYTES = 512;

	private static final Outcome CLOSED = new Outcome(false, "the supervisor is closed");

	private final Runnable afterResults;

	/** Probes sent and not yet taken by the thread. */
	private final Queue<Probe> sent = new ConcurrentLinkedQueue<>();

	/** Probes the thread has taken; the thread's alone. */
	private final Set<Probe> inFlight = new HashSet<>();

	/** Each probe address, parsed once; the thread's alone. */
	private final Map<String, InetAddress> addresses = new HashMap<>();

	private volatile boolean closed;

	/** Started with the first probe. Guarded by this. */
	private @Nullable Selector selector;

	/** Guarded by this. */
	private @Nullable Thread thread;

	/**
	 * @param afterResults called on the client's thread, holding no lock, after each turn
	 * in which results were given
	 */
	public ProbeClient(Runnable afterResults) {
		this.afterResults = afterResults;
	}

	/**
	 * Sends a probe of {@code port}: a {@code GET} of {@code path} (passing on a 2xx or
	 * 3xx status; redirects are not followed), or, with no path, a TCP connection. Never
	 * waits. {@code result} is called once, on the client's thread (or on this one, when
	 * the client is closed), holding no lock of this client.
	 * @param address the loopback address the child listens on, as an IP address (a
	 * child's {@code probe-address}, checked to be one): {@code 127.0.0.1} or {@code ::1}
	 * @param timeout how long the probe may take, from when its connection is opened
	 */
	public void send(String address, int port, @Nullable String path, Duration timeout, Consumer<Outcome> result) {
		this.sent.add(new Probe(address, port, path, timeout, result));
		Selector running = (this.closed) ? null : running();
		if (running != null) {
			running.wakeup();
		}
		else if (!this.closed) {
			failSent(new Outcome(false, "probes cannot run: no selector could be opened"));
		}
		// Why checked after the hand-over: a probe sent while the client closes is
		// failed here, or by the thread as it stops; each is taken from the queue once.
		if (this.closed) {
			failSent(CLOSED);
		}
	}

	/** The selector of the running thread, both started on the first call. */
	private synchronized @Nullable Selector running() {
		if (this.selector == null) {
			try {
				this.selector = Selector.open();
			}
			catch (IOException ex) {
				// Why go on: without a selector no probe can run, and each sent fails
				// until one can be opened.
				logger.warn("Probes cannot run: {}", ex.toString());
				return null;
			}
			Selector opened = this.selector;
			Thread started = new Thread(() -> run(opened), "supervisor-probes");
			started.setDaemon(true);
			started.start();
			this.thread = started;
		}
		return this.selector;
	}

	private void run(Selector selector) {
		while (!this.closed) {
			// Why cleared: results are applied on this thread, by code that may restore
			// an interrupt it caught, and a set flag would make every select return at
			// once.
			Thread.interrupted();
			List<Completed> completed = new ArrayList<>();
			for (Probe probe = this.sent.poll(); probe != null; probe = this.sent.poll()) {
				Outcome immediate = start(selector, probe);
				if (immediate != null) {
					completed.add(new Completed(probe, immediate));
				}
			}
			try {
				// Why not wait when a probe ended as it started: its result is given now.
				if (completed.isEmpty()) {
					selector.select(waitMillis());
				}
				else {
					selector.selectNow();
				}
			}
			catch (IOException ex) {
				// Why go on: an interrupted selection is retried at the next turn; the
				// timeouts below still apply.
			}
			for (SelectionKey key : selector.selectedKeys()) {
				Probe probe = (Probe) key.attachment();
				Outcome outcome = key.isValid() ? advance(selector, probe, key.isConnectable()) : null;
				if (outcome != null) {
					completed.add(new Completed(probe, outcome));
				}
			}
			selector.selectedKeys().clear();
			long now = System.nanoTime();
			for (Probe probe : List.copyOf(this.inFlight)) {
				if (now - probe.deadline >= 0) {
					completed.add(new Completed(probe,
							finish(probe, new Outcome(false, "no answer within " + probe.timeout))));
				}
			}
			if (!completed.isEmpty()) {
				try {
					completed.forEach((done) -> done.probe.result.accept(done.outcome));
					this.afterResults.run();
				}
				catch (RuntimeException ex) {
					// Why go on: this one thread runs every child's probes, which must
					// outlive a failure in applying one result.
					logger.error("Probe results could not all be applied", ex);
				}
			}
		}
		List.copyOf(this.inFlight).forEach((probe) -> probe.result.accept(finish(probe, CLOSED)));
		failSent(CLOSED);
		try {
			selector.close();
		}
		catch (IOException ex) {
			// Its channels are closed above; nothing is lost.
		}
	}

	/** Until the nearest deadline, or until woken when nothing is in flight. */
	private long waitMillis() {
		if (!this.sent.isEmpty()) {
			return 1;
		}
		long now = System.nanoTime();
		long nearest = Long.MAX_VALUE;
		for (Probe probe : this.inFlight) {
			nearest = Math.min(nearest, probe.deadline - now);
		}
		return (nearest == Long.MAX_VALUE) ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(nearest) + 1);
	}

	private void failSent(Outcome outcome) {
		for (Probe probe = this.sent.poll(); probe != null; probe = this.sent.poll()) {
			probe.result.accept(outcome);
		}
	}

	private @Nullable Outcome start(Selector selector, Probe probe) {
		// Why from here, not from the send: a probe waits for this thread while it
		// applies results, and that wait must not count against the child.
		probe.deadline = System.nanoTime() + probe.timeout.toNanos();
		try {
			SocketChannel channel = SocketChannel.open();
			probe.channel = channel;
			channel.configureBlocking(false);
			// Why finishConnect at once: on loopback the handshake is done within the
			// connect call, even where the call says it is in progress.
			boolean connected = channel.connect(new InetSocketAddress(address(probe.address), probe.port))
					|| channel.finishConnect();
			if (connected && probe.path == null) {
				// Why not registered: a connection made at once is the whole TCP probe,
				// and a channel never registered is closed at once, where a registered
				// one waits for the selector to let it go.
				return finish(probe, passed(probe));
			}
			channel.register(selector, connected ? 0 : SelectionKey.OP_CONNECT, probe);
			this.inFlight.add(probe);
			return connected ? advance(selector, probe, true) : null;
		}
		catch (IOException | RuntimeException ex) {
			// Why unchecked too: an address this socket cannot reach (::1 where IPv6 is
			// off) throws UnsupportedAddressTypeException, which fails this probe and
			// must not end the thread that runs every probe.
			return finish(probe, new Outcome(false, describe(ex)));
		}
	}

	/** Parses an IP address once. */
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

	/**
	 * One step: the connection, then the request, then the status line. @return the
	 * outcome once there is one
	 */
	private @Nullable Outcome advance(Selector selector, Probe probe, boolean connecting) {
		SocketChannel channel = probe.channel();
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
				channel.keyFor(selector).interestOps(SelectionKey.OP_READ);
				return null;
			}
			return read(probe);
		}
		catch (IOException | RuntimeException ex) {
			return finish(probe, new Outcome(false, describe(ex)));
		}
	}

	private static Outcome passed(Probe probe) {
		return new Outcome(true, "port " + probe.port + " accepts connections");
	}

	/** The {@code Host} header's value: an IPv6 address in brackets, then the port. */
	private String host(Probe probe) throws IOException {
		InetAddress parsed = address(probe.address);
		String address = parsed.getHostAddress();
		return ((parsed instanceof Inet6Address) ? "[" + address + "]" : address) + ":" + probe.port;
	}

	private @Nullable Outcome read(Probe probe) throws IOException {
		int read = probe.channel().read(probe.answer);
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
			if (probe.channel != null) {
				probe.channel.close();
			}
		}
		catch (IOException ex) {
			// Nothing was left to send on it: a failed close loses nothing.
		}
		return outcome;
	}

	private static String describe(Exception ex) {
		if (ex instanceof ConnectException) {
			return "connection refused";
		}
		return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
	}

	/**
	 * Fails every probe in flight and every probe sent later, and stops the thread,
	 * waiting a moment for it.
	 */
	@Override
	public void close() {
		this.closed = true;
		Thread running;
		synchronized (this) {
			running = this.thread;
			if (this.selector != null) {
				this.selector.wakeup();
			}
		}
		if (running == null) {
			failSent(CLOSED);
			return;
		}
		try {
			running.join(TimeUnit.SECONDS.toMillis(5));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
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

	/** One probe, sent and then in flight; the client's thread's alone once taken. */
	private static final class Probe {

		private final String address;

		private final int port;

		private final @Nullable String path;

		/** Set when its connection is opened. */
		private long deadline;

		private final Duration timeout;

		private final Consumer<Outcome> result;

		private final ByteBuffer answer = ByteBuffer.allocate(ANSWER_BYTES);

		private @Nullable SocketChannel channel;

		Probe(String address, int port, @Nullable String path, Duration timeout, Consumer<Outcome> result) {
			this.address = address;
			this.port = port;
			this.path = path;
			this.timeout = timeout;
			this.result = result;
		}

		SocketChannel channel() {
			return Objects.requireNonNull(this.channel, "opened before it is moved on");
		}

	}

}
