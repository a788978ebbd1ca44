package dev.tether.benchmarks;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.springai.SupervisedMcpTransports;

/**
 * MCP servers over stdio, the same server ({@link McpBenchServer}) under Tether's
 * transport (a supervised child's pipes, as {@code mcp.transport: stdio} gives Spring
 * AI's client) and under the MCP SDK's own {@link StdioClientTransport} (what
 * {@code spring.ai.mcp.client.stdio.connections} uses): a tool call's round trip, the
 * time from start to the first successful tool call, and the JVM threads each server
 * costs.
 */
final class McpRows {

	private static final Duration AWAIT = Duration.ofSeconds(120);

	static final String TETHER = "Tether (mcp.transport: stdio)";

	static final String SPRING_AI = "Spring AI's stdio transport (MCP SDK StdioClientTransport)";

	private static final McpSchema.CallToolRequest ECHO = McpSchema.CallToolRequest.builder()
		.name("echo")
		.arguments(Map.of("text", "ping"))
		.build();

	private final Results results;

	private final Path work;

	McpRows(Results results, Path work) {
		this.results = results;
		this.work = work;
	}

	/**
	 * Mean time of a tool call ({@code echo}) after {@code calls / 5} calls to warm up,
	 * over one session of each transport, alternated twice; each keeps its quicker run.
	 * The server is {@code mcp-echo} (C, one thread): what differs is the transports. Why
	 * not the SDK's server here: its stdio transport drops a reply now and then when the
	 * next request arrives while it is still sending the previous one ("Failed to enqueue
	 * message" in its stderr), and the call then waits for its timeout.
	 */
	void roundTrip(Path echoServer, int calls) throws Exception {
		List<String> echo = List.of(echoServer.toString());
		double tether = Double.MAX_VALUE;
		double springAi = Double.MAX_VALUE;
		for (int i = 0; i < 2; i++) {
			try (Servers servers = tetherServers(1, echo)) {
				tether = Math.min(tether, meanCallMicros(servers.connect(0), calls));
			}
			try (Servers servers = springAiServers(1, echo)) {
				springAi = Math.min(springAi, meanCallMicros(servers.connect(0), calls));
			}
		}
		String metric = "MCP tool call round trip over stdio, same server, " + calls + " calls";
		this.results.add(metric, "µs per call, lower is better", TETHER, tether);
		this.results.add(metric, "µs per call, lower is better", SPRING_AI, springAi);
		this.results.add("MCP tool call round trip over stdio, Tether ÷ Spring AI's transport", "ratio, target ≤ 1.1",
				"per round", tether / springAi);
	}

	/**
	 * From nothing running to the first successful tool call of each of {@code n}
	 * servers, started at once (one thread each: start, initialise, call). Spring AI's
	 * transport starts the server with {@code ProcessBuilder} and does nothing else, so
	 * its figure is the servers' own start-up (and the MCP handshake); what Tether adds
	 * is the difference. Two alternated starts each, the quicker kept: one JVM start
	 * varies by more than the difference.
	 */
	void firstCall(int n) throws Exception {
		FirstCall tether = null;
		FirstCall springAi = null;
		for (int i = 0; i < 2; i++) {
			tether = quicker(tether, firstCall(tetherServers(n, server()), n));
			springAi = quicker(springAi, firstCall(springAiServers(n, server()), n));
		}
		String metric = "MCP start to the first successful tool call, " + n + " stdio server" + ((n > 1) ? "s" : "")
				+ " at once";
		this.results.add(metric, "ms, lower is better", TETHER, tether.millis());
		this.results.add(metric, "ms, lower is better", SPRING_AI + ": the servers' own start-up", springAi.millis());
		this.results.add(metric, "ms, lower is better", "Tether's part (the difference)",
				tether.millis() - springAi.millis());
		this.results.add(metric, "ms, lower is better",
				"of which in Supervisor.start (spawn, launcher, shepherd), mean", tether.startMillis());
		this.results.add("MCP start to the first tool call: Tether's part ÷ Tether's total", "ratio, target ≤ 0.10",
				n + " server" + ((n > 1) ? "s" : ""), (tether.millis() - springAi.millis()) / tether.millis());
	}

	/**
	 * JVM threads per live MCP server and its session, each transport in a fresh JVM (see
	 * {@link #threadsInThisJvm}).
	 */
	void threads(int n) throws Exception {
		String metric = "JVM threads per supervised MCP server with its session, N=" + n;
		this.results.add(metric, "threads, lower is better", TETHER, threadsInFreshJvm("tether", n));
		this.results.add(metric, "threads, lower is better", SPRING_AI, threadsInFreshJvm("spring-ai", n));
	}

	private double threadsInFreshJvm(String transport, int n) throws Exception {
		Process jvm = new ProcessBuilder(java(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx512m", "-cp",
				System.getProperty("java.class.path"), Benchmarks.class.getName(), "mcp-threads", transport,
				Integer.toString(n), this.work.toString())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
		if (!jvm.waitFor(300, TimeUnit.SECONDS) || jvm.exitValue() != 0) {
			jvm.destroyForcibly().waitFor();
			throw new IllegalStateException("MCP threads of " + transport + " failed: " + output);
		}
		return Double.parseDouble(output);
	}

	/**
	 * Prints the threads this JVM gained per server for {@code n} servers with an
	 * initialised session each, after one server was connected and closed, so that pools
	 * made once (Reactor's, the supervisor's) are not counted per server.
	 */
	static void threadsInThisJvm(String transport, int n, Path work) throws Exception {
		McpRows rows = new McpRows(new Results(), work);
		try (Servers servers = transport.equals("tether") ? rows.tetherServers(n + 1, server())
				: rows.springAiServers(n + 1, server())) {
			servers.connect(0).callTool(ECHO);
			servers.close(0);
			System.gc();
			int before = ManagementFactory.getThreadMXBean().getThreadCount();
			for (int i = 1; i <= n; i++) {
				servers.connect(i).callTool(ECHO);
			}
			int after = ManagementFactory.getThreadMXBean().getThreadCount();
			System.out.printf(java.util.Locale.ROOT, "%.3f%n", (after - before) / (double) n);
		}
	}

	private static FirstCall firstCall(Servers servers, int n) throws Exception {
		ThreadPoolExecutor threads = (ThreadPoolExecutor) Executors.newFixedThreadPool(n);
		// Why started first: the threads exist before the clock starts, for both
		// transports.
		threads.prestartAllCoreThreads();
		try (servers) {
			List<Callable<Void>> work = new ArrayList<>();
			for (int i = 0; i < n; i++) {
				int server = i;
				work.add(() -> {
					servers.connect(server).callTool(ECHO);
					return null;
				});
			}
			long started = System.nanoTime();
			for (Future<Void> done : threads.invokeAll(work)) {
				done.get();
			}
			return new FirstCall((System.nanoTime() - started) / 1e6, servers.startNanos() / 1e6 / n);
		}
		finally {
			threads.shutdown();
		}
	}

	private static FirstCall quicker(FirstCall kept, FirstCall other) {
		return (kept == null || other.millis() < kept.millis()) ? other : kept;
	}

	private static double meanCallMicros(McpSyncClient client, int calls) {
		for (int i = 0; i < calls / 5; i++) {
			client.callTool(ECHO);
		}
		long started = System.nanoTime();
		for (int i = 0; i < calls; i++) {
			client.callTool(ECHO);
		}
		return (System.nanoTime() - started) / 1e3 / calls;
	}

	private Servers tetherServers(int n, List<String> command) throws Exception {
		SupervisorBuilder builder = BenchSupervisors.builder(this.work, "mcp");
		for (int i = 0; i < n; i++) {
			builder
				.child(ChildSpec.builder("mcp-" + i, command).stdio(true).stopTimeout(Duration.ofSeconds(5)).build());
		}
		Supervisor supervisor = builder.build();
		AtomicLong startNanos = new AtomicLong();
		return new Servers(n, supervisor::close, startNanos, (i) -> {
			long started = System.nanoTime();
			supervisor.start("mcp-" + i);
			startNanos.addAndGet(System.nanoTime() - started);
			return SupervisedMcpTransports.stdio("mcp-" + i, supervisor, AWAIT);
		});
	}

	private Servers springAiServers(int n, List<String> command) {
		ServerParameters parameters = ServerParameters.builder(command.get(0))
			.args(command.subList(1, command.size()))
			.build();
		return new Servers(n, () -> {
		}, new AtomicLong(), (i) -> new StdioClientTransport(parameters, McpJsonDefaults.getMapper()));
	}

	/**
	 * A server on the MCP Java SDK ({@link McpBenchServer}): this JVM's classpath, tuned
	 * for a quick start.
	 */
	static List<String> server() {
		return List.of(java(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m",
				"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
				McpBenchServer.class.getName());
	}

	private static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private record FirstCall(double millis, double startMillis) {
	}

	@FunctionalInterface
	private interface TransportFactory {

		McpClientTransport open(int server) throws Exception;

	}

	/**
	 * {@code n} servers of one transport, each with the client that started it; closing
	 * ends every one.
	 */
	private static final class Servers implements AutoCloseable {

		private final McpSyncClient[] clients;

		private final AutoCloseable after;

		private final AtomicLong startNanos;

		private final TransportFactory transports;

		Servers(int n, AutoCloseable after, AtomicLong startNanos, TransportFactory transports) {
			this.clients = new McpSyncClient[n];
			this.after = after;
			this.startNanos = startNanos;
			this.transports = transports;
		}

		/**
		 * Starts server {@code i} (under Tether: {@code Supervisor.start}) and
		 * initialises a session with it.
		 */
		McpSyncClient connect(int i) throws Exception {
			McpSyncClient client = McpClient.sync(this.transports.open(i))
				.requestTimeout(AWAIT)
				.initializationTimeout(AWAIT)
				.build();
			this.clients[i] = client;
			client.initialize();
			return client;
		}

		long startNanos() {
			return this.startNanos.get();
		}

		void close(int i) {
			if (this.clients[i] != null) {
				this.clients[i].closeGracefully();
				this.clients[i] = null;
			}
		}

		@Override
		public void close() throws Exception {
			for (int i = 0; i < this.clients.length; i++) {
				close(i);
			}
			this.after.close();
		}

	}

}
