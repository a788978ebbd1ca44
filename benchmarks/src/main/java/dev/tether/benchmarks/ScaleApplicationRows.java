package dev.tether.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import dev.tether.benchmarks.ParentDeathRows.Identity;
import dev.tether.supervisor.internal.resources.ThisProcess;

/**
 * One application with thousands of children ({@link ScaleBootApp}, a JVM of its own):
 * the time until all are {@code RUNNING}, the tick's p99 and the endpoints' slowest
 * answers while they run, then {@code kill -9} of the JVM and the time until every
 * process it left is gone. Each running child holds 3 descriptors, and 6 more while its
 * resources are sampled, and Tether raises only the soft {@code RLIMIT_NOFILE}: the JVM
 * gets a hard limit of {@value #OPEN_FILES} through {@code prlimit}, as a deployment sets
 * {@code LimitNOFILE=} or {@code --ulimit nofile}, where this machine lets it be raised
 * ({@code CAP_SYS_RESOURCE}); elsewhere the children beyond what the machine's hard limit
 * holds are refused by the descriptor budget, and the rows say how many ran.
 */
final class ScaleApplicationRows {

	static final int OPEN_FILES = 131_072;

	private static final String SUPERVISED_CHILD = "dev.tether.supervisor.internal.supervision.SupervisedChild";

	private static final long GONE_NANOS = TimeUnit.SECONDS.toNanos(5);

	private final Results results;

	private final Path work;

	ScaleApplicationRows(Results results, Path work) {
		this.results = results;
		this.work = work;
	}

	void run(int children, Duration observe) throws Exception {
		List<String> command = new ArrayList<>();
		boolean raised = canRaiseOpenFiles();
		if (raised) {
			command.addAll(List.of("prlimit", "--nofile=" + OPEN_FILES + ":" + OPEN_FILES, "--"));
		}
		command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
				// Why: each child the descriptor budget refuses logs a line.
				"-Dorg.slf4j.simpleLogger.log." + SUPERVISED_CHILD + "=off", "-Xmx1g", "-cp",
				System.getProperty("java.class.path"), ScaleBootApp.class.getName(), Integer.toString(children),
				this.work.toString(), Long.toString(observe.toSeconds())));
		Process jvm = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		Map<String, Double> figures = new HashMap<>();
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
			boolean holding = false;
			while (!holding) {
				String line = lines.readLine();
				if (line == null) {
					break;
				}
				String[] parts = line.split(" ", 2);
				holding = line.equals("HOLDING");
				if (parts.length == 2 && parts[1].matches("[0-9.]+")) {
					figures.put(parts[0], Double.parseDouble(parts[1]));
				}
				else if (!holding) {
					System.err.println("  scale: " + line);
				}
			}
			if (!holding) {
				throw new IllegalStateException("the application with " + children + " children ended before it "
						+ "was measured: exit status " + jvm.waitFor());
			}
			List<Identity> left = descendants(jvm.pid());
			long killed = System.nanoTime();
			jvm.destroyForcibly();
			while (left.stream().anyMatch(Identity::alive) && System.nanoTime() - killed < GONE_NANOS) {
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
			}
			double goneMillis = (System.nanoTime() - killed) / 1e6;
			long survivors = left.stream().filter(Identity::alive).count();
			ParentDeathRows.endSurvivors(left);
			jvm.waitFor();
			String subject = "Tether starter, " + children + " children";
			String metric = "Application with " + children + " sleep children (defaults: files, shepherd, resources; "
					+ "hard RLIMIT_NOFILE " + (raised ? OPEN_FILES : "of the machine, " + hardOpenFiles()) + ")";
			this.results.add(metric + ", children RUNNING (the others refused by the descriptor budget)", "children",
					subject, figures.getOrDefault("RUNNING_CHILDREN", -1.0));
			this.results.add(metric + ", until each is RUNNING or refused", "ms, target ≤ 60000 for all RUNNING",
					subject, figures.getOrDefault("SETTLED", Double.POSITIVE_INFINITY));
			this.results.add(
					metric + ", until no child has become RUNNING for 5 s (refused ones start as counts find room)",
					"ms, lower is better", subject, figures.getOrDefault("QUIET", Double.POSITIVE_INFINITY));
			String ticks = " of the ticks while the endpoints are read (each as supervisor.reap.tick records it)";
			this.results.add(metric + ", tick p99" + ticks, "ms, target ≤ 20", subject,
					figures.getOrDefault("TICK_P99", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", tick median" + ticks, "ms, lower is better", subject,
					figures.getOrDefault("TICK_P50", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", longest" + ticks, "ms, lower is better", subject,
					figures.getOrDefault("TICK_MAX", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", ticks while the endpoints are read", "ticks", subject,
					figures.getOrDefault("TICKS", -1.0));
			this.results.add(metric + ", the first request, GET /actuator (the HTTP client's and Spring MVC's start)",
					"ms, lower is better", subject, figures.getOrDefault("FIRST_REQUEST", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", slowest GET /actuator/children", "ms, target ≤ 500", subject,
					figures.getOrDefault("CHILDREN_MAX", Double.POSITIVE_INFINITY));
			this.results.add(
					metric + ", first GET /actuator/children (every tree's first sample, code not compiled yet)",
					"ms, lower is better", subject, figures.getOrDefault("CHILDREN_FIRST", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", median GET /actuator/children", "ms, lower is better", subject,
					figures.getOrDefault("CHILDREN_MEDIAN", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", slowest GET /actuator/health", "ms, target ≤ 500", subject,
					figures.getOrDefault("HEALTH_MAX", Double.POSITIVE_INFINITY));
			this.results.add(metric + ", descriptors open in the JVM", "descriptors", subject,
					figures.getOrDefault("DESCRIPTORS", -1.0));
			this.results.add(metric + ", kill -9 of the JVM until all " + left.size() + " processes it left are gone",
					"ms, target ≤ 5000", subject, (survivors == 0) ? goneMillis : Double.POSITIVE_INFINITY);
		}
		finally {
			if (jvm.isAlive()) {
				List<Identity> left = descendants(jvm.pid());
				jvm.destroyForcibly().waitFor();
				ParentDeathRows.endSurvivors(left);
			}
		}
	}

	/** Whether this machine lets a process's hard {@code RLIMIT_NOFILE} be raised. */
	private static boolean canRaiseOpenFiles() throws Exception {
		Process probe = new ProcessBuilder("prlimit", "--nofile=" + OPEN_FILES + ":" + OPEN_FILES, "true")
			.redirectErrorStream(true)
			.start();
		probe.getInputStream().readAllBytes();
		return probe.waitFor() == 0;
	}

	/** This JVM's hard {@code RLIMIT_NOFILE}, which the application inherits. */
	private static String hardOpenFiles() {
		return ThisProcess.hardLimits().getOrDefault("Max open files", -1L).toString();
	}

	/** Every process below {@code root}, from one pass over {@code /proc}. */
	private static List<Identity> descendants(long root) throws IOException {
		Map<Long, List<Long>> children = new HashMap<>();
		try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
			entries.map((entry) -> entry.getFileName().toString())
				.filter((name) -> name.chars().allMatch(Character::isDigit))
				.map((name) -> ParentDeathRows.PROBE.stat(Long.parseLong(name)))
				.flatMap((stat) -> stat.stream())
				.forEach((stat) -> children.computeIfAbsent(stat.ppid(), (ppid) -> new ArrayList<>()).add(stat.pid()));
		}
		List<Identity> found = new ArrayList<>();
		List<Long> pending = new ArrayList<>(List.of(root));
		while (!pending.isEmpty()) {
			long pid = pending.remove(pending.size() - 1);
			for (long child : children.getOrDefault(pid, List.of())) {
				found.add(Identity.of(child));
				pending.add(child);
			}
		}
		return found;
	}

}
