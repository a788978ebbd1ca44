package dev.tether.sample.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.awaitility.Awaitility;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;

/**
 * The packaged sample app ({@code java -jar}) as a real process, with a configuration of the scenario's own.
 */
final class SampleAppProcess implements AutoCloseable {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Process process;

	private final int port;

	private final Path log;

	private SampleAppProcess(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/** Starts the app with {@code config} as its only configuration file; returns at once. */
	static SampleAppProcess start(Path config, Path log) throws IOException {
		int port = freePort();
		List<String> command = JavaCommand.of("-jar", System.getProperty("sample.jar"),
				"--spring.config.location=file:" + config, "--server.port=" + port);
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
			.start();
		return new SampleAppProcess(process, port, log);
	}

	/** Starts the app and waits until its endpoint answers. */
	static SampleAppProcess started(Path config, Path log) throws IOException {
		SampleAppProcess app = start(config, log);
		app.awaitReady();
		return app;
	}

	static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	void awaitReady() {
		Awaitility.await("sample app ready")
			.atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.failFast("the app exited: " + output(), () -> !this.process.isAlive())
			.until(this::reconciled);
	}

	/** Whether the endpoint answers and the startup reconciliation (run when the app is ready) has happened. */
	private boolean reconciled() {
		try {
			HttpResponse<String> response = get("/actuator/children");
			return response.statusCode() == 200 && !JSON.readTree(response.body()).get("reconciliation").isNull();
		}
		catch (IOException ex) {
			return false;
		}
	}

	long pid() {
		return this.process.pid();
	}

	Process process() {
		return this.process;
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
			return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
	}

	JsonNode json(String path) throws IOException {
		return JSON.readTree(get(path).body());
	}

	JsonNode post(String path, String body) throws IOException, InterruptedException {
		return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString()).body());
	}

	JsonNode child(String name) throws IOException {
		return json("/actuator/children/" + name);
	}

	String state(String name) throws IOException {
		return child(name).get("state").asString();
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

	/** The JVM's CPU time so far (user + system), in clock ticks. */
	long cpuTicks() throws IOException {
		String stat = Files.readString(Path.of("/proc", Long.toString(pid()), "stat"));
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
	}

	void kill9() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/** SIGTERM, as a platform's stop would send. */
	void terminate() {
		this.process.destroy();
	}

	boolean awaitExit(Duration timeout) throws InterruptedException {
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			terminate();
			if (!awaitExit(Duration.ofSeconds(30))) {
				kill9();
			}
		}
	}

}
