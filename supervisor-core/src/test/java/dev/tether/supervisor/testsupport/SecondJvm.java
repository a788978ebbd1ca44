package dev.tether.supervisor.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.registry.ChildRegistry;

/**
 * A JVM a test starts and may kill: its process, the {@code KEY value} lines it prints,
 * SIGTERM, SIGKILL.
 */
public final class SecondJvm implements AutoCloseable {

	private final Process process;

	private final BufferedReader output;

	private SecondJvm(Process process) {
		this.process = process;
		this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
	}

	/** A main class of this test class path; standard error goes to {@code log}. */
	public static SecondJvm start(Class<?> mainClass, Path log, String... args) throws IOException {
		return new SecondJvm(new ProcessBuilder(JavaCommand.main(mainClass, args)).redirectError(log.toFile()).start());
	}

	/** Any JVM command line. */
	public static SecondJvm start(ProcessBuilder builder) throws IOException {
		return new SecondJvm(builder.start());
	}

	/**
	 * The builder of a supervisor in a second JVM's main: its launcher, registry and
	 * child logs under {@code state}.
	 */
	public static SupervisorBuilder supervisorIn(String installationId, Path state, ChildRegistry registry) {
		return Supervisor.builder()
			.installationId(installationId)
			.launcherDirectory(state.resolve("launcher"))
			.registry(registry)
			.logDirectory(state.resolve("logs"));
	}

	public long pid() {
		return this.process.pid();
	}

	public Process process() {
		return this.process;
	}

	/**
	 * Reads printed lines until one for each key has come (or the JVM ends); the last
	 * value of a key wins.
	 */
	public Map<String, String> readUntil(String... keys) throws IOException {
		Map<String, String> values = new HashMap<>();
		String line;
		while (values.size() < keys.length && (line = this.output.readLine()) != null) {
			int space = line.indexOf(' ');
			if (space > 0) {
				values.put(line.substring(0, space), line.substring(space + 1));
			}
		}
		return values;
	}

	/**
	 * Reads printed lines until {@code count} of them have started with {@code key};
	 * returns their last value.
	 */
	public String readUntilCount(String key, int count) throws IOException {
		String value = null;
		int seen = 0;
		String line;
		while (seen < count && (line = this.output.readLine()) != null) {
			if (line.startsWith(key + " ")) {
				value = line.substring(key.length() + 1);
				seen++;
			}
		}
		if (seen < count) {
			throw new IllegalStateException("the JVM ended after " + seen + " of " + count + " " + key + " lines");
		}
		return value;
	}

	/** SIGTERM, as a platform's stop would send. */
	public void terminate() {
		this.process.destroy();
	}

	/** SIGKILL, and wait until it has ended. */
	public void kill9() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(30, TimeUnit.SECONDS);
	}

	public boolean awaitExit(Duration timeout) throws InterruptedException {
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			kill9();
		}
	}

}
