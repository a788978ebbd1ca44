package dev.tether.supervisor.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client that sends a request to a port at a fixed rate, each an HTTP/1.0 {@code GET /}
 * on a connection of its own whose answer's last line is the pid that served it, and
 * counts what happens: answered, refused, or failed otherwise (cut, timed out).
 */
public final class RequestLoop implements AutoCloseable {

	private static final int TIMEOUT_MILLIS = 10_000;

	private static final byte[] REQUEST = "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	private final int port;

	private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();

	private final AtomicInteger answered = new AtomicInteger();

	private final AtomicInteger refused = new AtomicInteger();

	private final List<String> failures = new CopyOnWriteArrayList<>();

	private final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());

	private final AtomicLong lastServer = new AtomicLong();

	private RequestLoop(int port) {
		this.port = port;
	}

	/** Starts sending a request to 127.0.0.1:{@code port} every {@code interval}. */
	public static RequestLoop start(int port, Duration interval) {
		RequestLoop loop = new RequestLoop(port);
		loop.sender.scheduleAtFixedRate(loop::send, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
		return loop;
	}

	private void send() {
		long started = System.nanoTime();
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			socket.getOutputStream().write(REQUEST);
			String line = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
				.lines()
				.reduce((first, second) -> second)
				.orElse(null);
			if (line == null) {
				this.failures.add("connection closed without an answer");
				return;
			}
			this.lastServer.set(Long.parseLong(line.trim()));
			this.latencies.add(System.nanoTime() - started);
			this.answered.incrementAndGet();
		}
		catch (ConnectException ex) {
			this.refused.incrementAndGet();
		}
		catch (IOException | UncheckedIOException | NumberFormatException ex) {
			this.failures.add(ex.toString());
		}
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

	/** The slowest answer. */
	public Duration slowest() {
		synchronized (this.latencies) {
			return Duration.ofNanos(this.latencies.stream().mapToLong(Long::longValue).max().orElse(0));
		}
	}

	/** Stops sending and waits for the request in flight. */
	@Override
	public void close() throws InterruptedException {
		this.sender.shutdown();
		this.sender.awaitTermination(TIMEOUT_MILLIS * 2L, TimeUnit.MILLISECONDS);
	}

}
