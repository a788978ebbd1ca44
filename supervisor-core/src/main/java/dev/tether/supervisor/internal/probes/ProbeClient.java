package dev.tether.supervisor.internal.probes;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.AsynchronousChannelGroup;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

/**
 * Runs probes against ports on the loopback address. Its threads are made at the first probe (an application
 * without probes has none) and end with {@link #close()}.
 */
public final class ProbeClient implements AutoCloseable {

	private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

	private @Nullable Resources resources;

	private boolean closed;

	/**
	 * A {@code GET} of {@code path} on {@code port}: passes on a 2xx or 3xx status (redirects are not followed).
	 * @return the outcome, within {@code timeout}
	 */
	public CompletableFuture<Outcome> httpGet(int port, String path, Duration timeout) {
		Resources used = resources();
		if (used == null) {
			return CompletableFuture.completedFuture(new Outcome(false, "the supervisor is closed"));
		}
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://" + LOOPBACK.getHostAddress() + ":" + port + path))
			.timeout(timeout)
			.header("User-Agent", "tether-probe")
			.GET()
			.build();
		return within(used.http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
			.thenApply((response) -> new Outcome(response.statusCode() >= 200 && response.statusCode() < 400,
					"HTTP " + response.statusCode())), timeout);
	}

	/**
	 * A TCP connection to {@code port}, closed at once.
	 * @return the outcome, within {@code timeout}
	 */
	public CompletableFuture<Outcome> tcp(int port, Duration timeout) {
		Resources used = resources();
		if (used == null) {
			return CompletableFuture.completedFuture(new Outcome(false, "the supervisor is closed"));
		}
		CompletableFuture<Outcome> outcome = new CompletableFuture<>();
		AsynchronousSocketChannel channel;
		try {
			channel = AsynchronousSocketChannel.open(used.group);
		}
		catch (IOException ex) {
			return CompletableFuture.completedFuture(new Outcome(false, "no socket: " + ex.getMessage()));
		}
		channel.connect(new InetSocketAddress(LOOPBACK, port), null, new CompletionHandler<Void, Void>() {

			@Override
			public void completed(Void result, Void attachment) {
				outcome.complete(new Outcome(true, "port " + port + " accepts connections"));
			}

			@Override
			public void failed(Throwable ex, Void attachment) {
				outcome.complete(new Outcome(false, describe(ex)));
			}

		});
		// Why closed on every end: a connection that hangs past its timeout must not hold a descriptor.
		return within(outcome, timeout).whenComplete((result, ex) -> closeQuietly(channel));
	}

	private static CompletableFuture<Outcome> within(CompletableFuture<Outcome> probe, Duration timeout) {
		return probe.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
			.exceptionally((ex) -> new Outcome(false, describe(ex)));
	}

	private static String describe(Throwable ex) {
		Throwable cause = (ex.getCause() != null && !(ex instanceof TimeoutException)) ? ex.getCause() : ex;
		if (cause instanceof TimeoutException || cause instanceof java.net.http.HttpTimeoutException) {
			return "no answer within the timeout";
		}
		String message = cause.getMessage();
		return (message != null) ? message : cause.getClass().getSimpleName();
	}

	private static void closeQuietly(AsynchronousSocketChannel channel) {
		try {
			channel.close();
		}
		catch (IOException ex) {
			// Nothing was sent on it: a failed close loses nothing.
		}
	}

	private synchronized @Nullable Resources resources() {
		if (this.closed) {
			return null;
		}
		if (this.resources == null) {
			this.resources = Resources.create();
		}
		return this.resources;
	}

	@Override
	public void close() {
		Resources used;
		synchronized (this) {
			this.closed = true;
			used = this.resources;
			this.resources = null;
		}
		if (used != null) {
			used.close();
		}
	}

	/**
	 * A probe's outcome.
	 * @param passed whether it passed
	 * @param detail what it saw
	 */
	public record Outcome(boolean passed, String detail) {
	}

	/** The threads every probe shares. */
	private record Resources(ExecutorService executor, HttpClient http, AsynchronousChannelGroup group) {

		static Resources create() {
			// Why one thread: it only hands results over; no probe ever blocks on it.
			ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
				Thread thread = new Thread(task, "tether-probes");
				thread.setDaemon(true);
				return thread;
			});
			HttpClient http = HttpClient.newBuilder()
				.executor(executor)
				.proxy(HttpClient.Builder.NO_PROXY)
				.followRedirects(HttpClient.Redirect.NEVER)
				.version(HttpClient.Version.HTTP_1_1)
				.build();
			try {
				return new Resources(executor, http, AsynchronousChannelGroup.withThreadPool(executor));
			}
			catch (IOException ex) {
				executor.shutdownNow();
				throw new IllegalStateException("cannot create the probes' channel group", ex);
			}
		}

		void close() {
			try {
				this.group.shutdownNow();
			}
			catch (IOException ex) {
				// Its channels were probes of our own children; what was in flight completes as failed.
			}
			this.executor.shutdownNow();
			// Why: from JDK 21 the client can be closed, which ends its selector thread at once; on 17 that thread
			// ends once the client is unreachable.
			if (this.http instanceof AutoCloseable closeable) {
				try {
					closeable.close();
				}
				catch (Exception ex) {
					// Its connections were to our own children's ports; nothing is lost.
				}
			}
		}

	}

}
