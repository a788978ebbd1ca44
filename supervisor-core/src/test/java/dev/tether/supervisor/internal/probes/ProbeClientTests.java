package dev.tether.supervisor.internal.probes;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.tether.supervisor.internal.probes.ProbeClient.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The probe client against real sockets on the loopback address, its results coming on
 * its own thread.
 */
class ProbeClientTests {

	private static final Duration DEADLINE = Duration.ofSeconds(10);

	private final AtomicInteger turns = new AtomicInteger();

	private final ProbeClient client = new ProbeClient(this.turns::incrementAndGet);

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
			long sent = System.nanoTime();
			this.client.send("127.0.0.1", silent.getLocalPort(), "/health", Duration.ofMillis(500), hung::complete);
			assertThat(probe(listening.getLocalPort(), null, Duration.ofSeconds(5)).passed()).isTrue();
			assertThat(hung).as("still waiting for its answer").isNotDone();
			assertThat(hung.get(10, TimeUnit.SECONDS)).isEqualTo(new Outcome(false, "no answer within PT0.5S"));
			assertThat(Duration.ofNanos(System.nanoTime() - sent))
				.as("failed at its timeout, counted from its connection")
				.isBetween(Duration.ofMillis(500), Duration.ofMillis(500 + 2_000));
		}
	}

	@Test
	void sendingNeverWaitsOnAConnectThatCannotComplete() throws Exception {
		// A listener whose backlog is full: a connect to it never completes, as to a
		// server that binds first and accepts only once it has loaded.
		try (ServerSocketChannel full = ServerSocketChannel.open()) {
			full.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
			int port = ((InetSocketAddress) full.getLocalAddress()).getPort();
			List<Socket> filling = new ArrayList<>();
			try {
				for (int i = 0; i < 4; i++) {
					Socket socket = new Socket();
					socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
					filling.add(socket);
				}
			}
			catch (IOException ex) {
				// The backlog is full: what this test needs.
			}
			try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
				assertThat(probe(listening.getLocalPort(), null, Duration.ofSeconds(5)).passed())
					.as("the client's thread started")
					.isTrue();
			}
			List<CompletableFuture<Outcome>> stuck = new ArrayList<>();
			long before = System.nanoTime();
			for (int i = 0; i < 50; i++) {
				CompletableFuture<Outcome> outcome = new CompletableFuture<>();
				this.client.send("127.0.0.1", port, null, Duration.ofMillis(300), outcome::complete);
				stuck.add(outcome);
			}
			// Why a second: a send that waited on its connect would take the probe's
			// 300 ms timeout, 15 s for 50.
			assertThat(Duration.ofNanos(System.nanoTime() - before)).as("50 sends").isLessThan(Duration.ofSeconds(1));
			try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
				assertThat(probe(listening.getLocalPort(), null, Duration.ofSeconds(5)).passed()).isTrue();
			}
			for (CompletableFuture<Outcome> outcome : stuck) {
				assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo(new Outcome(false, "no answer within PT0.3S"));
			}
			for (Socket socket : filling) {
				socket.close();
			}
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

	@Test
	void closingFailsWhatIsInFlightAndWhatIsSentLater() throws Exception {
		try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			CompletableFuture<Outcome> hung = new CompletableFuture<>();
			this.client.send("127.0.0.1", silent.getLocalPort(), "/health", Duration.ofMinutes(1), hung::complete);
			this.client.close();
			assertThat(hung.get(10, TimeUnit.SECONDS)).isEqualTo(new Outcome(false, "the supervisor is closed"));
			CompletableFuture<Outcome> late = new CompletableFuture<>();
			this.client.send("127.0.0.1", silent.getLocalPort(), null, Duration.ofSeconds(1), late::complete);
			assertThat(late).isCompletedWithValue(new Outcome(false, "the supervisor is closed"));
		}
	}

	@Test
	void aProbeThatCannotBeMadeFailsAloneAndTheOthersGoOn() throws Exception {
		// An address the socket refuses with an unchecked exception (here a port out
		// of range; ::1 where IPv6 is off does the same) fails that probe only.
		Outcome impossible = probe(70_000, null, Duration.ofSeconds(5));
		assertThat(impossible.passed()).isFalse();
		assertThat(impossible.detail()).contains("70000");
		try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			assertThat(probe(listening.getLocalPort(), null, Duration.ofSeconds(5)).passed()).isTrue();
		}
	}

	@Test
	void aFailureInApplyingResultsLeavesTheThreadProbing() throws Exception {
		AtomicInteger calls = new AtomicInteger();
		try (ProbeClient failing = new ProbeClient(() -> {
			if (calls.incrementAndGet() == 1) {
				throw new IllegalStateException("a result could not be applied");
			}
		}); ServerSocket listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
			for (int i = 0; i < 2; i++) {
				CompletableFuture<Outcome> outcome = new CompletableFuture<>();
				failing.send("127.0.0.1", listening.getLocalPort(), null, Duration.ofSeconds(5), outcome::complete);
				assertThat(outcome.get(10, TimeUnit.SECONDS).passed()).isTrue();
			}
			await().atMost(DEADLINE).untilAsserted(() -> assertThat(calls.get()).isEqualTo(2));
		}
	}

	/** Sends a probe and waits for its outcome, which comes on the client's thread. */
	private Outcome probe(int port, String path, Duration timeout) throws Exception {
		CompletableFuture<Outcome> outcome = new CompletableFuture<>();
		int before = this.turns.get();
		this.client.send("127.0.0.1", port, path, timeout, outcome::complete);
		Outcome came = outcome.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
		await().atMost(DEADLINE)
			.untilAsserted(() -> assertThat(this.turns.get()).as("told after the results").isGreaterThan(before));
		return came;
	}

}
