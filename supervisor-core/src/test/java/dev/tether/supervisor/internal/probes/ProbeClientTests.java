package dev.tether.supervisor.internal.probes;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.tether.supervisor.internal.probes.ProbeClient.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The probe client against real sockets on the loopback address, polled as the tick polls
 * it.
 */
class ProbeClientTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final ProbeClient client = new ProbeClient();

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void aTcpProbePassesOnAListeningPortAndFailsOnAClosedOne() throws Exception {
		try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			assertThat(probe(server.getLocalPort(), null, Duration.ofSeconds(5)))
				.isEqualTo(new Outcome(true, "port " + server.getLocalPort() + " accepts connections"));
		}
		int closed;
		try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			closed = server.getLocalPort();
		}
		assertThat(probe(closed, null, Duration.ofSeconds(5))).isEqualTo(new Outcome(false, "connection refused"));
	}

	@Test
	void anHttpProbeReadsTheStatusLineAlone() throws Exception {
		assertThat(answering("HTTP/1.0 302 Found\r\nLocation: /elsewhere\r\n\r\n", "/health"))
			.isEqualTo(new Outcome(true, "HTTP 302"));
		assertThat(answering("HTTP/1.1 503 Service Unavailable\r\n\r\n", "/health"))
			.isEqualTo(new Outcome(false, "HTTP 503"));
		assertThat(answering("SSH-2.0-OpenSSH_9.6\r\n", "/health")).isEqualTo(new Outcome(false, "not an HTTP answer"));
		assertThat(answering("", "/health"))
			.isEqualTo(new Outcome(false, "the connection was closed without an answer"));
	}

	@Test
	void aProbeThatGetsNoAnswerFailsAtItsTimeoutAndOthersGoOnMeanwhile() throws Exception {
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
				ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			CompletableFuture<Outcome> hung = new CompletableFuture<>();
			this.client.send("127.0.0.1", silent.getLocalPort(), "/health", Duration.ofMillis(500), System.nanoTime(),
					hung::complete);
			assertThat(probe(listening.getLocalPort(), null, Duration.ofSeconds(5)).passed()).isTrue();
			assertThat(hung).as("still waiting for its answer").isNotDone();
			await().atMost(DEADLINE).until(() -> {
				this.client.poll(System.nanoTime());
				return hung.isDone();
			});
			assertThat(hung.get()).isEqualTo(new Outcome(false, "no answer within PT0.5S"));
		}
	}

	private Outcome answering(String answer, String path) throws Exception {
		try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			CompletableFuture<String> request = CompletableFuture.supplyAsync(() -> {
				try (Socket socket = server.accept()) {
					byte[] buffer = new byte[1024];
					int read = socket.getInputStream().read(buffer);
					OutputStream out = socket.getOutputStream();
					out.write(answer.getBytes(StandardCharsets.US_ASCII));
					out.flush();
					return new String(buffer, 0, Math.max(read, 0), StandardCharsets.US_ASCII);
				}
				catch (IOException ex) {
					throw new IllegalStateException(ex);
				}
			});
			Outcome outcome = probe(server.getLocalPort(), path, Duration.ofSeconds(5));
			assertThat(request.get(10, TimeUnit.SECONDS)).startsWith("GET " + path + " HTTP/1.1\r\n")
				.contains("Connection: close\r\n")
				.endsWith("\r\n\r\n");
			return outcome;
		}
	}

	/** Sends a probe, then polls as the tick would until its outcome comes. */
	private Outcome probe(int port, String path, Duration timeout) throws Exception {
		CompletableFuture<Outcome> outcome = new CompletableFuture<>();
		this.client.send("127.0.0.1", port, path, timeout, System.nanoTime(), outcome::complete);
		await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10)).until(() -> {
			this.client.poll(System.nanoTime());
			return outcome.isDone();
		});
		return outcome.get();
	}

}
