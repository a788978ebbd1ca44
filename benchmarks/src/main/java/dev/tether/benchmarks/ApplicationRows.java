package dev.tether.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Spring Boot application with the starter, each start in a fresh JVM (a warm JVM hides
 * most of what configuring costs): what configuring {@code n} children costs, and the
 * application path as users run it, from launch until {@code n} autostarted children are
 * {@code RUNNING}, beside the spawner alone in the same round.
 */
final class ApplicationRows {

	private static final String LAUNCH = "LAUNCH";

	private final Results results;

	private final Path work;

	private final SupervisorRows scale;

	ApplicationRows(Results results, Path work, SupervisorRows scale) {
		this.results = results;
		this.work = work;
		this.scale = scale;
	}

	/**
	 * The start with {@code n} children configured against one, autostart off, and the
	 * part of the difference that is the binding of {@code supervisor.*}.
	 */
	void start(int n) throws Exception {
		Map<String, Long> one = quicker(1, "configured");
		Map<String, Long> many = quicker(n, "configured");
		String metric = "Application start, " + n + " children configured minus one (fresh JVMs, autostart off)";
		this.results.add(metric, "ms, target ≤ 2000", "Tether starter", many.get("READY") - one.get("READY"));
		this.results.add(metric, "ms, target ≤ 2000", "of which binding supervisor.*",
				many.get("BIND") - one.get("BIND"));
		this.results.add(metric, "ms, target ≤ 2000", "of which loading application.yml",
				many.get("YAML") - one.get("YAML"));
		this.results.add(metric, "ms, target ≤ 2000", "of which parsing configuration classes",
				many.get("CONDITIONS") - one.get("CONDITIONS"));
		this.results.add("Application start, absolute (fresh JVM)", "ms, lower is better", "1 child", one.get("READY"));
		this.results.add("Application start, absolute (fresh JVM)", "ms, lower is better", n + " children",
				many.get("READY"));
	}

	/**
	 * From the launch of the JVM until {@code n} children configured with only a command
	 * (autostart, output captured to files, the shepherd, resources: the defaults) are
	 * all {@code RUNNING}, against the same application with one child; the difference as
	 * a rate beside the spawner alone in the same round, in this warm JVM and in a fresh
	 * one that has just started the one-child application (its compiler as busy with
	 * Spring's start as the application's is when its children start).
	 */
	void autostart(int n) throws Exception {
		double rawRate = this.scale.rawSpawnRate(n);
		Map<String, Long> one = quicker(1, "autostart");
		Map<String, Long> many = quicker(n, "autostart");
		Map<String, Long> fresh = quicker(n, "spawner");
		double freshRate = n / (fresh.get("SPAWNER") / 1e3);
		long extra = many.get("RUNNING") - one.get("RUNNING");
		String metric = "Application autostart, launch until all RUNNING (fresh JVMs, defaults)";
		this.results.add(metric, "ms, lower is better", "1 child", one.get("RUNNING"));
		this.results.add(metric, "ms, lower is better", n + " children", many.get("RUNNING"));
		this.results.add(metric, "ms, lower is better", n + " children, of which until Started",
				many.get(LAUNCH) + many.get("STARTED"));
		this.results.add(metric, "ms, lower is better", n + " children, of which the binding", many.get("BIND"));
		this.results.add(metric, "ms, lower is better",
				n + " children, of which the spawns (the first child's process start until all RUNNING)",
				many.get("SPAWNING"));
		this.results.add("Application autostart, " + n + " children minus one", "ms, target ≤ 3000", "Tether starter",
				extra);
		String rate = "Application autostart of " + n + " children minus one, rate";
		this.results.add(rate, "children/s, higher is better", "Tether spawner alone (same round)", rawRate);
		this.results.add(rate, "children/s, higher is better", "the application path", n / (extra / 1e3));
		this.results.add(rate, "children/s, higher is better",
				"Tether spawner alone in a fresh JVM, after the one-child application's start", freshRate);
		double spawning = (n - 1) / (many.get("SPAWNING") / 1e3);
		this.results.add(rate, "children/s, higher is better",
				"the application path's spawns alone (the first child's process start until all RUNNING)", spawning);
		this.results.add(
				"Application autostart's spawns ÷ the spawner alone in a fresh JVM after the one-child "
						+ "application's start, " + n + " children, per round",
				"ratio, higher is better", "Tether", spawning / freshRate);
		this.results.add("Application autostart rate ÷ raw spawner rate, " + n + " children, per round",
				"ratio, target ≥ 0.7", "Tether", n / (extra / 1e3) / rawRate);
		this.results.add(
				"Application autostart rate ÷ the spawner alone in a fresh JVM after the one-child "
						+ "application's start, " + n + " children, per round",
				"ratio, the same target's limit", "Tether", n / (extra / 1e3) / freshRate);
	}

	/**
	 * The quicker of two starts. Why: one JVM start varies by seconds on a shared
	 * machine, more than the difference measured; the quicker start is the one least
	 * disturbed.
	 */
	private Map<String, Long> quicker(int children, String mode) throws Exception {
		Map<String, Long> kept = startApplication(children, mode);
		Map<String, Long> other = startApplication(children, mode);
		String key = switch (mode) {
			case "autostart" -> "RUNNING";
			case "spawner" -> "SPAWNER";
			default -> "READY";
		};
		return (other.get(key) < kept.get(key)) ? other : kept;
	}

	/**
	 * One start; the figures it printed, in milliseconds, with {@code RUNNING} counted
	 * from the launch and {@code LAUNCH} the time from the launch to
	 * {@code SpringApplication.run} (the JVM's start and the configuration's writing).
	 */
	private Map<String, Long> startApplication(int children, String mode) throws Exception {
		long launched = System.nanoTime();
		Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xmx512m", "-cp",
				System.getProperty("java.class.path"), BootStartApp.class.getName(), Integer.toString(children),
				this.work.toString(), mode)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		Map<String, Long> figures = new HashMap<>();
		StringBuilder output = new StringBuilder();
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				long now = System.nanoTime();
				output.append(line).append('\n');
				String[] parts = line.split(" ");
				if (parts.length == 2 && parts[1].matches("[0-9]+")) {
					figures.put(parts[0], Long.parseLong(parts[1]));
					if (parts[0].equals("RUNNING")) {
						// Why the reader's clock too: the JVM's launch is part of the
						// path.
						figures.put(LAUNCH, (now - launched) / 1_000_000 - Long.parseLong(parts[1]));
						figures.put("RUNNING", (now - launched) / 1_000_000);
					}
				}
			}
		}
		// Why generous: the application stops its children before it exits.
		if (!jvm.waitFor(180, TimeUnit.SECONDS) || jvm.exitValue() != 0) {
			jvm.destroyForcibly().waitFor();
			throw new IllegalStateException("application with " + children + " children failed: " + output);
		}
		List<String> expected = switch (mode) {
			case "autostart" -> List.of("READY", "BIND", "RUNNING", "SPAWNING");
			case "spawner" -> List.of("READY", "BIND", "RUNNING", "SPAWNER");
			default -> List.of("READY", "BIND", "YAML");
		};
		if (!figures.keySet().containsAll(expected)) {
			throw new IllegalStateException("application with " + children + " children printed no figures: " + output);
		}
		return figures;
	}

}
