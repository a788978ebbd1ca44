package dev.tether.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Supervised MCP servers on the application path ({@link McpBootApp}, a fresh JVM each):
 * how soon a call to a server that died fails, against Spring AI's own stdio transport in
 * the same application; how soon a call succeeds again once the supervisor restarted it;
 * what one optional broken server beside five healthy ones costs the start; how soon a
 * required broken one fails it.
 */
final class McpApplicationRows {

	private static final String WITH_BROKEN = "healthy+optional-broken";

	private final Results results;

	private final Path work;

	McpApplicationRows(Results results, Path work) {
		this.results = results;
		this.work = work;
	}

	/** One application of {@code McpBootApp death}: its figures as rows. */
	void death() throws Exception {
		Map<String, Double> figures = run("death");
		String killed = "MCP stdio server killed (SIGKILL) while the client is idle, then called: until the call fails";
		double tetherKilled = record(killed, McpRows.TETHER, figures, "TETHERED_KILLED_FAILED");
		double springAiKilled = record(killed, McpRows.SPRING_AI, figures, "PLAIN_KILLED_FAILED");
		this.results.add("MCP stdio server killed, until a call fails: Spring AI's transport ÷ Tether's",
				"ratio, higher is Tether quicker", "per round", springAiKilled / tetherKilled);
		String closed = "MCP stdio server closes its stdout and runs on, then called: until the call fails";
		record(closed, McpRows.TETHER, figures, "TETHERED_CLOSED_FAILED");
		record(closed, McpRows.SPRING_AI + ", request timeout " + McpBootApp.REQUEST_TIMEOUT, figures,
				"PLAIN_CLOSED_FAILED");
		String recovered = "MCP stdio server under Tether, until a call succeeds again (restarted by the supervisor, "
				+ "default backoff)";
		record(recovered, "killed (SIGKILL)", figures, "TETHERED_KILLED_RECOVERED");
		record(recovered, "killed: of which until its new process was RUNNING", figures, "TETHERED_KILLED_RESTARTED");
		record(recovered, "closed its stdout (restarted 1 s after, as documented)", figures,
				"TETHERED_CLOSED_RECOVERED");
		record(recovered, "closed its stdout: of which until its new process was RUNNING", figures,
				"TETHERED_CLOSED_RESTARTED");
	}

	/**
	 * {@code pairs} starts of each configuration, alternated: five healthy servers, and
	 * the same with one optional broken server beside them; the medians and their
	 * difference, of the whole start and of its MCP steps.
	 */
	void start(int pairs) throws Exception {
		List<Map<String, Double>> healthy = new ArrayList<>();
		List<Map<String, Double>> withBroken = new ArrayList<>();
		for (int i = 0; i < pairs; i++) {
			// Why alternated: the load of a shared machine drifts over minutes; each
			// configuration gets the same share of it.
			boolean brokenFirst = i % 2 == 1;
			if (brokenFirst) {
				withBroken.add(run(WITH_BROKEN));
			}
			healthy.add(run("healthy"));
			if (!brokenFirst) {
				withBroken.add(run(WITH_BROKEN));
			}
		}
		String metric = "Application start with 5 MCP stdio servers (fresh JVMs), median of " + pairs
				+ " alternated starts";
		String difference = "Application start: 1 optional broken MCP server beside 5 healthy, minus without it";
		for (String figure : List.of("READY", "CONNECTIONS", "CLIENTS")) {
			String part = switch (figure) {
				case "READY" -> "SpringApplication.run";
				case "CONNECTIONS" -> "of which Tether starting the servers (tetherMcpConnections)";
				default -> "of which Spring AI's clients, started and initialised (mcpSyncClients)";
			};
			double without = median(healthy, figure);
			double with = median(withBroken, figure);
			this.results.add(metric, "ms, lower is better", part + ": 5 healthy", without);
			this.results.add(metric, "ms, lower is better", part + ": 5 healthy and 1 optional broken (/bin/false)",
					with);
			this.results.add(difference, "ms, target ≤ 1000", part, with - without);
		}
	}

	private static double median(List<Map<String, Double>> runs, String figure) {
		return Results.median(runs.stream().map((figures) -> figures.get(figure)).toList());
	}

	/**
	 * The time until the start of an application with a required broken server fails,
	 * beside the start of the same application without any MCP server.
	 */
	void requiredBroken() throws Exception {
		Map<String, Double> failed = run("required-broken");
		Map<String, Double> none = run("none");
		String metric = "Application start with 1 required broken MCP stdio server (/bin/false): until it fails";
		this.results.add(metric, "ms, lower is better", "until SpringApplication.run throws (context closed)",
				failed.get("FAILED"));
		this.results.add(metric, "ms, lower is better", "until ApplicationFailedEvent", failed.get("FAILED_EVENT"));
		this.results.add(metric, "ms, lower is better", "until Spring AI's clients failed (mcpSyncClients ended)",
				failed.get("CLIENTS_END"));
		this.results.add(metric, "ms, lower is better", "of which Spring AI's clients (mcpSyncClients)",
				failed.get("CLIENTS"));
		this.results.add(metric, "ms, lower is better",
				"the same application without MCP servers: until mcpSyncClients ended", none.get("CLIENTS_END"));
		this.results.add(metric, "ms, lower is better", "the same application without MCP servers: until ready",
				none.get("READY"));
	}

	private double record(String metric, String subject, Map<String, Double> figures, String key) {
		Double figure = figures.get(key);
		if (figure == null) {
			throw new IllegalStateException("McpBootApp printed no " + key + ": " + figures);
		}
		this.results.add(metric, "ms, target ≤ 100 for a failed call", subject, figure);
		return figure;
	}

	/** One application in a fresh JVM; the figures it printed. */
	private Map<String, Double> run(String mode) throws Exception {
		// Why generous: the application stops its servers before it exits.
		return FreshJvm.run(McpBootApp.class, Duration.ofSeconds(300), mode, this.work.toString());
	}

}
