package dev.tether.supervisor.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts a JVM with this test class path running a main class, and reads the {@code KEY value} lines it prints.
 */
public final class SecondJvm implements AutoCloseable {

	private final Process process;

	private final BufferedReader output;

	private SecondJvm(Process process) {
		this.process = process;
		this.output = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
	}

	public static SecondJvm start(Class<?> mainClass, Path log, String... args) throws IOException {
		return new SecondJvm(new ProcessBuilder(JavaCommand.main(mainClass, args)).redirectError(log.toFile()).start());
	}

	public long pid() {
		return this.process.pid();
	}

	/** Reads printed lines until one for each key has come (or the JVM ends). */
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

	/** SIGKILL, and wait for it. */
	public void kill9() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			kill9();
		}
	}

}
