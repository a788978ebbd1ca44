package dev.tether.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs an application of the benchmarks in a JVM of its own (the benchmarks' classpath),
 * whose figures it prints on its standard output as {@code NAME value} lines.
 */
final class FreshJvm {

	private FreshJvm() {
	}

	/**
	 * Runs {@code main} with {@code arguments} until it exits.
	 * @param limit how long it may take, its children's stop included
	 * @return its figures by name; its other lines are echoed to standard error
	 * @throws IllegalStateException when it fails or takes longer, with its output
	 */
	static Map<String, Double> run(Class<?> main, Duration limit, String... arguments) throws Exception {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx512m", "-cp",
						System.getProperty("java.class.path"), main.getName()));
		command.addAll(List.of(arguments));
		Process jvm = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		String name = main.getSimpleName() + " " + String.join(" ", arguments);
		if (!jvm.waitFor(limit.toSeconds(), TimeUnit.SECONDS) || jvm.exitValue() != 0) {
			jvm.destroyForcibly().waitFor();
			throw new IllegalStateException(name + " failed: " + output);
		}
		Map<String, Double> figures = new HashMap<>();
		for (String line : output.split("\n")) {
			String[] parts = line.split(" ", 2);
			if (parts.length == 2 && parts[1].matches("[0-9.]+")) {
				figures.put(parts[0], Double.parseDouble(parts[1]));
			}
			else if (!line.isBlank()) {
				System.err.println("  " + name + ": " + line);
			}
		}
		return figures;
	}

}
