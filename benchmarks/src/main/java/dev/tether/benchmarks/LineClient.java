package dev.tether.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A client of {@code line-server} at a fixed rate: one request every interval, each on a
 * connection of its own that reads one line (the pid that served it). Why open-loop (each
 * request on a thread of a pool, sent on time whatever the ones before it wait for): a
 * request that waits in a backlog while no process accepts must not hold back the next
 * ones, or the wait would be counted once instead of for every request it delays.
 */
final class LineClient implements AutoCloseable {

	private static final int TIMEOUT_MILLIS = 10_000;

	private final int port;

	private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();

	private final ExecutorService requests = Executors.newCachedThreadPool();

	private final AtomicInteger refused = new AtomicInteger();

	private final List<String> failures = Collections.synchronizedList(new ArrayList<>());

	private final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());

	private final Set<Long> servers = ConcurrentHashMap.newKeySet();

	private LineClient(int port) {
		this.port = port;
	}

	/** Starts sending a request to 127.0.0.1:{@code port} every {@code interval}. */
	static LineClient start(int port, Duration interval) {
		LineClient client = new LineClient(port);
		client.sender.scheduleAtFixedRate(client::send, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
		return client;
	}

	/**
	 * One request, on this thread.
	 * @return the pid that answered
	 * @throws IOException when it was refused, cut or timed out, or had no answer
	 */
	static long request(int port) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			InputStream in = socket.getInputStream();
			String line = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
			if (line.isEmpty()) {
				throw new IOException("connection closed without an answer");
			}
			return Long.parseLong(line);
		}
	}

	private void send() {
		long sent = System.nanoTime();
		this.requests.execute(() -> {
			try {
				this.servers.add(request(this.port));
				this.latencies.add(System.nanoTime() - sent);
			}
			catch (ConnectException ex) {
				this.refused.incrementAndGet();
			}
			catch (IOException | RuntimeException ex) {
				this.failures.add(ex.toString());
			}
		});
	}

	/** Whether a request was answered by process {@code pid}. */
	boolean servedBy(long pid) {
		return this.servers.contains(pid);
	}

	int refused() {
		return this.refused.get();
	}

	/** What went wrong besides refusals (cut, timed out), one entry per request. */
	List<String> failures() {
		return List.copyOf(this.failures);
	}

	/** The time of each answered request, from when it was due to its line, in ns. */
	List<Long> latencies() {
		synchronized (this.latencies) {
			return List.copyOf(this.latencies);
		}
	}

	/** Stops sending and waits for the requests in flight. */
	@Override
	public void close() throws InterruptedException {
		this.sender.shutdown();
		this.sender.awaitTermination(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
		this.requests.shutdown();
		this.requests.awaitTermination(TIMEOUT_MILLIS * 2L, TimeUnit.MILLISECONDS);
	}

}
