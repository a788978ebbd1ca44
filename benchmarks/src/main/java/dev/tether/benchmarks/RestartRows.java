package dev.tether.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildSpecBuilder;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.RestartMode;
import dev.tether.supervisor.SocketActivation;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.testsupport.RequestLoop;

/**
 * What a client sees while a server is restarted: one child, {@code line-server} (a small
 * C program that takes {@link #START} to start, then answers each connection with its
 * pid), restarted by the operator's {@link Supervisor#restart} a number of times, each
 * restart awaited until the new process has answered a request, while a client sends a
 * request every 10 ms, each on a connection of its own; it counts the requests refused,
 * those that failed otherwise and the latency of those answered. Each way of restarting
 * ({@link Mode}) is measured in the same run, after the same server with no restart at
 * all, the baseline of the latencies.
 */
final class RestartRows {

	static final String NAME = "server";

	static final Duration INTERVAL = Duration.ofMillis(10);

	static final Duration BASELINE = Duration.ofSeconds(10);

	/**
	 * How long the server takes to start before it accepts. Why not at once: a server
	 * that serves a millisecond after its exec hides what a restart costs a client (with
	 * one, stop-first restarts measured a p99 of 4 ms, 1.96× that of no restart); a real
	 * one initialises first.
	 */
	static final Duration START = Duration.ofMillis(100);

	private static final long AWAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

	private final Results results;

	private final Path work;

	private final Path server;

	RestartRows(Results results, Path work, Path server) {
		this.results = results;
		this.work = work;
		this.server = server;
	}

	void restarts(int restarts) throws Exception {
		String metric = metric(restarts, "Supervisor.restart");
		// Why with socket activation: the modes with a latency target have it, so that
		// their ratio to this is the restarts' alone.
		Measure baseline = measure(Mode.STOP_FIRST, 0);
		record(metric, "no restart (socket activation, " + BASELINE.toSeconds() + " s)", baseline);
		for (Mode mode : Mode.values()) {
			System.err.println("  restarts: " + mode.subject);
			Measure during = measure(mode, restarts);
			record(metric, mode.subject, during);
			this.results.add(metric + ", latency p99 ÷ the no-restart p99", "ratio, target ≤ 2 for rolling restarts",
					mode.subject, during.p99() / baseline.p99());
		}
	}

	/**
	 * The same on the application path ({@link RestartBootApp}, a fresh JVM each): the
	 * child configured by its properties, restarted through the actuator endpoint, with
	 * socket activation, stop-first and rolling.
	 */
	void applicationRestarts(int restarts) throws Exception {
		String metric = metric(restarts, "POST /actuator/children/server, the application in a fresh JVM");
		Measure baseline = application("stop-first", 0);
		record(metric, "no restart (socket activation, " + BASELINE.toSeconds() + " s)", baseline);
		for (Mode mode : List.of(Mode.STOP_FIRST, Mode.ROLLING)) {
			System.err.println("  application restarts: " + mode.subject);
			Measure during = application((mode == Mode.ROLLING) ? "rolling" : "stop-first", restarts);
			record(metric, mode.subject, during);
			this.results.add(metric + ", latency p99 ÷ the no-restart p99", "ratio, target ≤ 2 for rolling restarts",
					mode.subject, during.p99() / baseline.p99());
		}
	}

	private Measure application(String mode, int restarts) throws Exception {
		Map<String, Double> figures = FreshJvm.run(RestartBootApp.class, Duration.ofSeconds(300),
				this.server.toString(), mode, Integer.toString(restarts), this.work.toString());
		return new Measure(figures.get("REFUSED").intValue(), figures.get("FAILED").intValue(),
				figures.get("ANSWERED").intValue(), figures.get("P50"), figures.get("P99"));
	}

	private static String metric(int restarts, String how) {
		return "Restarts: " + restarts + " operator restarts (" + how + ") of a server that takes " + START.toMillis()
				+ " ms to start, each awaited until its new process answers; a client sends "
				+ 1000 / INTERVAL.toMillis() + " requests/s, each on its own connection";
	}

	private void record(String metric, String subject, Measure measure) {
		this.results.add(metric + ", requests refused", "requests, target 0 with socket activation", subject,
				measure.refused());
		this.results.add(metric + ", requests failed otherwise (reset, timed out)", "requests, lower is better",
				subject, measure.failed());
		this.results.add(metric + ", requests answered", "requests", subject, measure.answered());
		this.results.add(metric + ", latency p50", "ms from when the request was due, lower is better", subject,
				measure.p50());
		this.results.add(metric + ", latency p99", "ms from when the request was due, lower is better", subject,
				measure.p99());
	}

	private Measure measure(Mode mode, int restarts) throws Exception {
		int port = ProbeRows.freePorts(1).get(0);
		ChildSpec spec = mode.spec
			.apply(ChildSpec.builder(NAME, mode.command(this.server, port))
				.port(port)
				.autostart(false)
				.logFileEnabled(false))
			.build();
		try (Supervisor supervisor = BenchSupervisors.builder(this.work, "restarts").child(spec).build();
				Ticker ticker = Ticker.start(supervisor)) {
			supervisor.start(NAME);
			awaitAnswer(port);
			Random phase = new Random(restarts);
			RequestLoop client = RequestLoop.start(port, INTERVAL, RequestLoop.NOTHING);
			try {
				if (restarts == 0) {
					Pause.of(BASELINE);
				}
				for (int i = 0; i < restarts; i++) {
					restart(supervisor, client, phase, () -> supervisor.restart(NAME));
				}
			}
			finally {
				client.close();
			}
			return Measure.of(mode.subject, client);
		}
	}

	/**
	 * Restarts the child through {@code restart} once its process has answered the
	 * client, then waits until its next process has.
	 */
	static void restart(Supervisor supervisor, RequestLoop client, Random phase, Runnable restart) {
		long old = awaitServing(supervisor, client, 0);
		// Why a random pause within one interval: the wait above ends just after a
		// request, so without it every restart would begin at the same point of the
		// client's period, and one shorter than the period would mostly fall between two
		// requests (measured so: 1 to 5 of 20 restarts refused a request without socket
		// activation).
		Pause.of(Duration.ofNanos(phase.nextLong(INTERVAL.toNanos())));
		restart.run();
		awaitServing(supervisor, client, old);
	}

	/**
	 * The child's pid, once it is not {@code other}, the child is {@code RUNNING} (a
	 * rolling restart's new process answers before it is found ready, and a restart asked
	 * meanwhile does nothing more) and it has answered the client.
	 */
	private static long awaitServing(Supervisor supervisor, RequestLoop client, long other) {
		long deadline = System.nanoTime() + AWAIT_NANOS;
		while (true) {
			ChildSnapshot child = supervisor.snapshot(NAME).orElseThrow();
			Long pid = child.pid();
			if (pid != null && pid != other && child.state() == ChildState.RUNNING && client.servedBy(pid)) {
				return pid;
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("no new process of " + NAME + " answered within 30 s");
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	/** Waits until the server answers, before the client starts counting. */
	static void awaitAnswer(int port) {
		long deadline = System.nanoTime() + AWAIT_NANOS;
		while (true) {
			try {
				RequestLoop.request(port, RequestLoop.NOTHING);
				return;
			}
			catch (IOException ex) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(NAME + " did not answer within 30 s", ex);
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			}
		}
	}

	/** A way of restarting the server, each a subject of the rows. */
	private enum Mode {

		/** The child binds its port itself, so nothing listens between two processes. */
		BOUND("no socket activation (the child binds its port)", true, UnaryOperator.identity()),

		/**
		 * The supervisor holds the socket; a restart stops the process, then starts the
		 * next, which accepts what waited in the backlog meanwhile.
		 */
		STOP_FIRST("socket activation, stop-first restarts (the default)", false,
				(child) -> child
					.socketActivation(new SocketActivation(true, SocketActivation.DEFAULT_ADDRESS, null, 3))),

		/**
		 * The supervisor holds the socket; a restart starts the next process first and
		 * stops the old one once the next one says it serves (its "serving" line), so the
		 * old one answers meanwhile.
		 */
		ROLLING("socket activation, rolling restarts", false,
				(child) -> child.socketActivation(new SocketActivation(true, SocketActivation.DEFAULT_ADDRESS, null, 3))
					.restartMode(RestartMode.ROLLING)
					.readinessLogLine("^serving$")
					.logFileEnabled(true));

		private final String subject;

		private final boolean bindsPort;

		private final UnaryOperator<ChildSpecBuilder> spec;

		Mode(String subject, boolean bindsPort, UnaryOperator<ChildSpecBuilder> spec) {
			this.subject = subject;
			this.bindsPort = bindsPort;
			this.spec = spec;
		}

		List<String> command(Path server, int port) {
			String start = Long.toString(START.toMillis());
			return this.bindsPort ? List.of(server.toString(), start, Integer.toString(port))
					: List.of(server.toString(), start);
		}

	}

	private record Measure(int refused, int failed, int answered, double p50, double p99) {

		static Measure of(String subject, RequestLoop client) {
			List<String> failures = client.failures();
			if (!failures.isEmpty()) {
				Map<String, Long> kinds = failures.stream()
					.collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
				System.err.println("  " + subject + ", requests failed otherwise: " + kinds);
			}
			List<Long> latencies = client.latencies();
			return new Measure(client.refused(), failures.size(), latencies.size(), ProbeRows.percentile(latencies, 50),
					ProbeRows.percentile(latencies, 99));
		}

	}

}
