package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A client that sends a request to a port at a fixed rate, each on a connection of its
 * own whose answer's last line is the pid that served it, and counts what happens:
 * answered (and how long it took from when it was due), refused, or failed otherwise
 * (cut, timed out). Why open-loop (each request on a thread of a pool, sent on time
 * whatever the ones before it wait for): a request that waits in a backlog while no
 * process accepts must not hold back the next ones, or the wait would be counted once
 * instead of for every request it delays. Used by the tests and the benchmarks' restart
 * rows.
 */
public final class RequestLoop implements AutoCloseable {

	/** An HTTP/1.0 {@code GET /}. */
	public static final byte[] HTTP_GET = "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	/** No request: the server answers every connection at once. */
	public static final byte[] NOTHING = new byte[0];

	private static final int TIMEOUT_MILLIS = 10_000;

	private final int port;

	private final byte[] request;

	private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();

	private final ExecutorService requests = Executors.newCachedThreadPool();

	private final AtomicInteger answered = new AtomicInteger();

	private final AtomicInteger refused = new AtomicInteger();

	private final List<String> failures = new CopyOnWriteArrayList<>();

	private final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());

	private final Set<Long> servers = ConcurrentHashMap.newKeySet();

	private final AtomicLong lastServer = new AtomicLong();

	private RequestLoop(int port, byte[] request) {
		this.port = port;
		this.request = request;
	}

	/**
	 * Starts sending an HTTP {@code GET /} to 127.0.0.1:{@code port} every
	 * {@code interval}.
	 */
	public static RequestLoop start(int port, Duration interval) {
		return start(port, interval, HTTP_GET);
	}

	/**
	 * Starts sending {@code request} to 127.0.0.1:{@code port} every {@code interval}.
	 */
	public static RequestLoop start(int port, Duration interval, byte[] request) {
		RequestLoop loop = new RequestLoop(port, request);
		loop.sender.scheduleAtFixedRate(loop::send, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
		return loop;
	}

	/**
	 * One request, on this thread.
	 * @return the pid that answered
	 * @throws IOException when it was refused, cut or timed out, or had no answer
	 */
	public static long request(int port, byte[] request) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			String answer;
			try {
				socket.getOutputStream().write(request);
				answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
			}
			catch (SocketException ex) {
				// Why the same failure as an empty answer: a process that had accepted
				// the connection and died closed it, and with the request still unread
				// the kernel resets it rather than closing it.
				throw new CutConnection(ex);
			}
			if (answer.isEmpty()) {
				throw new CutConnection(null);
			}
			return Long.parseLong(answer.substring(answer.lastIndexOf('\n') + 1).trim());
		}
	}

	private void send() {
		long due = System.nanoTime();
		this.requests.execute(() -> {
			try {
				long server = request(this.port, this.request);
				this.latencies.add(System.nanoTime() - due);
				this.servers.add(server);
				this.lastServer.set(server);
				this.answered.incrementAndGet();
			}
			catch (ConnectException ex) {
				this.refused.incrementAndGet();
			}
			catch (CutConnection ex) {
				this.failures.add(CutConnection.MESSAGE);
			}
			catch (IOException | RuntimeException ex) {
				this.failures.add(ex.toString());
			}
		});
	}

	public int answered() {
		return this.answered.get();
	}

	public int refused() {
		return this.refused.get();
	}

	/** What went wrong besides refusals, one entry per request. */
	public List<String> failures() {
		return List.copyOf(this.failures);
	}

	/** The pid that answered the latest request, 0 before any. */
	public long lastServer() {
		return this.lastServer.get();
	}

	/** Whether a request was answered by process {@code pid}. */
	public boolean servedBy(long pid) {
		return this.servers.contains(pid);
	}

	/** The time of each answered request, from when it was due to its answer, in ns. */
	public List<Long> latencies() {
		synchronized (this.latencies) {
			return List.copyOf(this.latencies);
		}
	}

	/** The slowest answer. */
	public Duration slowest() {
		return Duration.ofNanos(latencies().stream().mapToLong(Long::longValue).max().orElse(0));
	}

	/** Stops sending and waits for the requests in flight. */
	@Override
	public void close() throws InterruptedException {
		this.sender.shutdown();
		this.sender.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
		this.requests.shutdown();
		this.requests.awaitTermination(TIMEOUT_MILLIS * 2L, TimeUnit.MILLISECONDS);
	}

	/**
	 * A connection the server closed or reset without an answer: the process that had
	 * accepted it ended.
	 */
	public static final class CutConnection extends IOException {

		/** What {@link #failures()} records for it. */
		public static final String MESSAGE = "connection closed without an answer";

		CutConnection(@Nullable SocketException cause) {
			super(MESSAGE, cause);
		}

	}

}
