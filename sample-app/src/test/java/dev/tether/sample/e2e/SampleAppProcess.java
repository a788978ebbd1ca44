package dev.tether.sample.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.Awaitility;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;

/**
 * The packaged sample app ({@code java -jar}) as a real process, with a configuration of
 * the scenario's own. It binds a port the kernel picks ({@code server.port=0}) and the
 * port is read from the web server's start line in its log; nothing guesses a free port.
 */
final class SampleAppProcess implements AutoCloseable {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final Pattern STARTED_ON_PORT = Pattern.compile("started on port (\\d+)");

	private final SecondJvm jvm;

	private final Path log;

	/** Where this start's output begins in the (appended) log. */
	private final long logStart;

	private int port = -1;

	private SampleAppProcess(SecondJvm jvm, Path log, long logStart) {
		this.jvm = jvm;
		this.log = log;
		this.logStart = logStart;
	}

	/**
	 * Starts the app with {@code config} as its only configuration file; returns at once.
	 */
	static SampleAppProcess start(Path config, Path log) throws IOException {
		return start(List.of(), List.of("--spring.config.location=file:" + config), log);
	}

	/**
	 * Starts the app with the configuration it ships ({@code application.yml} in the
	 * jar), {@code properties} on top, and waits until it is ready.
	 */
	static SampleAppProcess startedAsShipped(List<String> properties, Path log) throws IOException {
		return awaitReadyOrClose(start(List.of(), properties, log));
	}

	/**
	 * As {@link #startedAsShipped}, from the application context that the build generated
	 * ahead of time ({@code spring-boot:process-aot}) rather than from its configuration
	 * classes.
	 */
	static SampleAppProcess startedAheadOfTime(List<String> properties, Path log) throws IOException {
		return awaitReadyOrClose(start(List.of("-Dspring.aot.enabled=true"), properties, log));
	}

	private static SampleAppProcess start(List<String> jvmOptions, List<String> arguments, Path log)
			throws IOException {
		long logStart = Files.exists(log) ? Files.size(log) : 0;
		List<String> options = new ArrayList<>(jvmOptions);
		options.addAll(List.of("-jar", System.getProperty("sample.jar")));
		List<String> command = new ArrayList<>(JavaCommand.of(options.toArray(String[]::new)));
		command.addAll(arguments);
		command.add("--server.port=0");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		return new SampleAppProcess(SecondJvm.start(builder), log, logStart);
	}

	/**
	 * Starts the app and waits until its endpoint answers and its startup reconciliation
	 * has run.
	 */
	static SampleAppProcess started(Path config, Path log) throws IOException {
		return awaitReadyOrClose(start(config, log));
	}

	private static SampleAppProcess awaitReadyOrClose(SampleAppProcess app) {
		try {
			app.awaitReady();
		}
		catch (RuntimeException | Error ex) {
			try {
				app.close();
			}
			catch (InterruptedException interrupted) {
				Thread.currentThread().interrupt();
			}
			throw ex;
		}
		return app;
	}

	void awaitReady() {
		Awaitility.await("sample app ready")
			.atMost(Duration.ofSeconds(90))
			.pollInterval(Duration.ofMillis(200))
			.failFast("the app exited: " + output(), () -> !this.jvm.process().isAlive())
			.until(this::reconciled);
	}

	/**
	 * Whether the endpoint answers and the startup reconciliation (run when the app is
	 * ready) has happened.
	 */
	private boolean reconciled() {
		if (reportedPort() < 0) {
			return false;
		}
		try {
			HttpResponse<String> response = get("/actuator/children");
			return response.statusCode() == 200 && !JSON.readTree(response.body()).get("reconciliation").isNull();
		}
		catch (IOException ex) {
			return false;
		}
	}

	private int port() {
		if (this.port < 0) {
			this.port = Awaitility.await("the web server's port in " + this.log)
				.atMost(Duration.ofSeconds(90))
				.until(this::reportedPort, (port) -> port > 0);
		}
		return this.port;
	}

	/**
	 * The port of this start's web server, from its start line in the log, or -1 before
	 * it has started.
	 */
	private int reportedPort() {
		String output = output();
		Matcher matcher = STARTED_ON_PORT.matcher(output.substring((int) Math.min(this.logStart, output.length())));
		return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
	}

	long pid() {
		return this.jvm.pid();
	}

	Process process() {
		return this.jvm.process();
	}

	String output() {
		return LiveProcesses.readIfPresent(this.log);
	}

	int status(String path) {
		try {
			return get(path).statusCode();
		}
		catch (IOException ex) {
			return -1;
		}
	}

	HttpResponse<String> get(String path) throws IOException {
		try {
			return HTTP.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port() + path);
	}

	JsonNode json(String path) throws IOException {
		return JSON.readTree(get(path).body());
	}

	JsonNode post(String path, String body) throws IOException, InterruptedException {
		return JSON.readTree(HTTP.send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString()).body());
	}

	/** One child, from {@code /actuator/children/{name}}. */
	JsonNode child(String name) throws IOException {
		return json("/actuator/children/" + name);
	}

	String state(String name) throws IOException {
		return child(name).get("state").asString();
	}

	/** Every child, from {@code /actuator/children}. */
	List<JsonNode> children() throws IOException {
		List<JsonNode> children = new ArrayList<>();
		json("/actuator/children").get("children").forEach(children::add);
		return children;
	}

	/** The pids of the children that have one. */
	List<Long> childPids() throws IOException {
		return children().stream()
			.filter((child) -> !child.get("pid").isNull())
			.map((c) -> c.get("pid").asLong())
			.toList();
	}

	/** How many children are in {@code state}. */
	long childrenIn(String state) throws IOException {
		return children().stream().filter((child) -> child.get("state").asString().equals(state)).count();
	}

	/** The JVM's thread count, from {@code /proc/<pid>/status}. */
	int threads() throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
			if (line.startsWith("Threads:")) {
				return Integer.parseInt(line.substring("Threads:".length()).trim());
			}
		}
		throw new IllegalStateException("no Threads line");
	}

	/**
	 * The CPU time (user + system, in clock ticks) of the supervisor's own threads
	 * ({@code supervisor-*}: spawner, reaper, tick), leaving out the web server, the JIT
	 * and the collector, which serve the test's HTTP polling.
	 */
	long supervisorCpuTicks() {
		long ticks = 0;
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid()), "task"))) {
			for (Path task : tasks) {
				String stat = LiveProcesses.readIfPresent(task.resolve("stat"));
				int open = stat.indexOf('(');
				int close = stat.lastIndexOf(')');
				if (open < 0 || close < 0 || !stat.substring(open + 1, close).startsWith("supervisor-")) {
					continue;
				}
				String[] fields = stat.substring(close + 2).split(" ");
				ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return ticks;
	}

	void kill9() throws InterruptedException {
		this.jvm.kill9();
	}

	/** SIGTERM, as a platform's stop would send. */
	void terminate() {
		this.jvm.terminate();
	}

	boolean awaitExit(Duration timeout) throws InterruptedException {
		return this.jvm.awaitExit(timeout);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.jvm.process().isAlive()) {
			terminate();
			if (!awaitExit(Duration.ofSeconds(30))) {
				kill9();
			}
		}
	}

}
