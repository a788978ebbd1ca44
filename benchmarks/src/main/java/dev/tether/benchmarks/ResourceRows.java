package dev.tether.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.LimitedResource;
import dev.tether.supervisor.ResourceLimit;
import dev.tether.supervisor.ResourceLimits;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.boot.metrics.SupervisorMetrics;
import dev.tether.supervisor.internal.resources.TreeSampler;
import dev.tether.supervisor.internal.spawn.CommandSettings;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * What resources cost: the {@code resources} view of many children, the tick with
 * {@code max-memory} on all of them, and the spawn rate with limits and an OOM score set
 * by the launcher. Every supervisor made here is closed and every spawned child killed
 * and reaped before the row ends.
 */
final class ResourceRows {

	private static final List<String> SLEEPER = List.of("/bin/sleep", "600");

	/** A tree of two processes under its shepherd: the shell and its sleep. */
	private static final List<String> PAIR = List.of("/bin/sh", "-c", "/bin/sleep 600 & wait");

	/**
	 * The files the samplers keep for a tree of {@link #PAIR}: a command's with no
	 * descendants, and its sleep's {@code stat}, {@code statm} and {@code children}.
	 */
	private static final int KEPT_PER_PAIR = TreeSampler.KEPT_PER_CHILD + 3;

	private static final ResourceLimits LIMITED = ResourceLimits.builder()
		.openFiles(ResourceLimit.of(1024))
		.coreSize(ResourceLimit.of(0))
		.processes(ResourceLimit.of(4096))
		.oomScoreAdjust(500)
		.build();

	private static final Duration AWAIT = Duration.ofSeconds(120);

	/** A pause past the half second that the resources view is cached for. */
	private static final Duration CACHE_EXPIRED = Duration.ofMillis(600);

	/**
	 * Spawns in one batch of the spawn-rate row: short, so that a pair of batches sees
	 * the same machine.
	 */
	private static final int SPAWN_BATCH = 50;

	private final Results results;

	private final Path work;

	private final Path procFloor;

	ResourceRows(Results results, Path work, Path procFloor) {
		this.results = results;
		this.work = work;
		this.procFloor = procFloor;
	}

	/**
	 * {@code usage(name)} of each of {@code n} children of two processes, the cache
	 * expired before each pass, so that every call samples its tree: time per child,
	 * median of 5 passes. Then the same trees walked by {@code proc-floor}, the same
	 * reads from C with every file kept and the same pause before each pass, as the row's
	 * C limit; and again with {@code status} read for the memory, as the sampler did
	 * before it read {@code statm}. Tether's time is also given apart for the trees whose
	 * files the samplers keep and for those past their share of the descriptor limit,
	 * which are read by path.
	 */
	void sampling(int n) throws Exception {
		try (Supervisor supervisor = startedPairs(n)) {
			List<Double> perChild = new ArrayList<>();
			List<Double> keptPerChild = new ArrayList<>();
			List<Double> byPathPerChild = new ArrayList<>();
			int kept = n;
			for (int pass = 0; pass < 5; pass++) {
				// Why a pause: the view is cached for half a second; each pass must
				// sample every tree.
				Pause.of(CACHE_EXPIRED);
				long[] took = new long[n];
				long started = System.nanoTime();
				long previous = started;
				for (int i = 0; i < n; i++) {
					supervisor.usage("child-" + i);
					long now = System.nanoTime();
					took[i] = now - previous;
					previous = now;
				}
				perChild.add((previous - started) / 1e3 / n);
				// Why the first trees: the samplers keep files first come, first served,
				// up to their share of the descriptor limit; the trees sampled past it
				// are read by path at every pass.
				kept = (int) Math.min(n, supervisor.descriptors().sampled() / KEPT_PER_PAIR);
				keptPerChild.add(mean(took, 0, kept));
				if (kept < n) {
					byPathPerChild.add(mean(took, kept, n));
				}
			}
			String metric = "Resources view of " + n + " children of 2 processes each, per child, median of 5 passes";
			this.results.add(metric, "µs, target ≤ 50", "Tether", Results.median(perChild));
			System.err.printf(
					"  resources view: the samplers keep the files of %d trees of %d (up to a quarter "
							+ "of the soft limit of open files, %,d); the others are read by path%n",
					kept, n, supervisor.descriptors().limit());
			this.results.add(metric, "µs, target ≤ 50", "Tether, the trees whose files the samplers keep",
					Results.median(keptPerChild));
			if (!byPathPerChild.isEmpty()) {
				this.results.add(metric, "µs, target ≤ 50", "Tether, the trees past the samplers' share, read by path",
						Results.median(byPathPerChild));
			}
			List<String> commands = supervisor.snapshots()
				.stream()
				.map((child) -> Long.toString(Objects.requireNonNull(child.pid())))
				.toList();
			this.results.add(metric, "µs, target ≤ 50", Results.C_LIMIT + "proc-floor, the same reads, files kept",
					floor("statm", commands));
			this.results.add(metric, "µs, target ≤ 50", Results.C_LIMIT + "proc-floor, status in place of statm",
					floor("status", commands));
		}
	}

	/** The mean of {@code took[from..to)}, in microseconds. */
	private static double mean(long[] took, int from, int to) {
		long sum = 0;
		for (int i = from; i < to; i++) {
			sum += took[i];
		}
		return sum / 1e3 / Math.max(1, to - from);
	}

	/**
	 * The median time per tree of 5 passes of {@code proc-floor} over the trees of
	 * {@code commands}.
	 */
	private double floor(String memoryFile, List<String> commands) throws Exception {
		List<String> command = new ArrayList<>(
				List.of(this.procFloor.toString(), memoryFile, "5", Long.toString(CACHE_EXPIRED.toMillis())));
		command.addAll(commands);
		// Why its output to a file: the wait then has a deadline, which a read of a pipe
		// until its end would not.
		Path output = Files.createTempFile(this.work, "proc-floor", ".txt");
		Process floor = new ProcessBuilder(command).redirectOutput(output.toFile())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			boolean ended = floor.waitFor(AWAIT.toSeconds(), TimeUnit.SECONDS);
			List<String> lines = Files.readAllLines(output, StandardCharsets.US_ASCII);
			if (!ended || floor.exitValue() != 0 || !lines.contains("processes " + 2 * commands.size())) {
				throw new IllegalStateException("proc-floor did not walk " + commands.size() + " trees of 2: " + lines);
			}
			return Results.median(lines.stream()
				.filter((line) -> line.startsWith("pass "))
				.map((line) -> Double.parseDouble(line.substring(5)))
				.toList());
		}
		finally {
			floor.destroyForcibly();
			Files.deleteIfExists(output);
		}
	}

	/**
	 * One Prometheus scrape of the meters of {@code n} children of two processes, bound
	 * as the starter binds them (its {@link SupervisorMetrics}, which the
	 * auto-configuration registers): with the cache expired, so that the scrape walks
	 * each tree once, and again within the cache. Time per child, median of 5 scrapes
	 * each.
	 */
	void scrape(int n) throws Exception {
		try (Supervisor supervisor = startedPairs(n)) {
			PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
			StaticListableBeanFactory beans = new StaticListableBeanFactory();
			beans.addBean("supervisor", supervisor);
			new SupervisorMetrics(beans.getBeanProvider(Supervisor.class)).bindTo(registry);
			int length = registry.scrape().length();
			List<Double> expired = new ArrayList<>();
			List<Double> cached = new ArrayList<>();
			for (int pass = 0; pass < 5; pass++) {
				// Why a pause: the view is cached for half a second; the first scrape of
				// each pass must sample.
				Pause.of(CACHE_EXPIRED);
				long started = System.nanoTime();
				length = Math.max(length, registry.scrape().length());
				long between = System.nanoTime();
				length = Math.max(length, registry.scrape().length());
				expired.add((between - started) / 1e3 / n);
				cached.add((System.nanoTime() - between) / 1e3 / n);
			}
			// Why not in the row's name: the text's length varies by a few bytes between
			// rounds.
			System.err.printf("  scrape of %d meters: %d KB of text%n", registry.getMeters().size(), length / 1024);
			String metric = "Prometheus scrape of the meters of " + n + " children of 2 processes each ("
					+ registry.getMeters().size() + " meters), per child, median of 5";
			this.results.add(metric, "µs, lower is better", "cache expired (each tree walked once)",
					Results.median(expired));
			this.results.add(metric, "µs, lower is better", "within the cache", Results.median(cached));
			registry.close();
		}
	}

	/**
	 * The tick of {@code n} live children every 200 ms for 3 s, with and without
	 * {@code max-memory} on every child: the mean tick over that schedule, since each
	 * tree is sampled once a second, not at every tick.
	 */
	void tick(int n) throws Exception {
		for (boolean limited : new boolean[] { false, true }) {
			ResourceLimits resources = limited ? ResourceLimits.builder().maxMemory(1L << 40).build()
					: ResourceLimits.NONE;
			try (Supervisor supervisor = supervisor(n, SLEEPER, resources)) {
				supervisor.startAutostart();
				awaitUntil(
						() -> supervisor.snapshots()
							.stream()
							.allMatch((child) -> child.state() == ChildState.RUNNING && child.pid() != null),
						"children all RUNNING with a pid");
				supervisor.tick();
				List<Double> ticks = new ArrayList<>();
				long next = System.nanoTime();
				for (int i = 0; i < 15; i++) {
					next += Duration.ofMillis(200).toNanos();
					Pause.until(next);
					long started = System.nanoTime();
					supervisor.tick();
					ticks.add((System.nanoTime() - started) / 1e6);
				}
				double mean = ticks.stream().mapToDouble(Double::doubleValue).average().orElse(0);
				this.results.add("Tick with " + n + " live children, mean of 15 ticks 200 ms apart",
						"ms, lower is better", limited ? "max-memory on every child" : "no max-memory", mean);
			}
		}
	}

	/**
	 * The descriptors the JVM holds per running, sampled child: {@code n} {@code sleep}
	 * children with the defaults (shepherd, output captured to a log file), each sampled
	 * once ({@code usage}); the JVM's open descriptors ({@code /proc/self/fd}) after all
	 * are {@code RUNNING} and sampled, minus before they were started, divided by
	 * {@code n}, beside what the descriptor budget counts per child. One child is started
	 * and sampled before the count begins, so that what the first start opens for good
	 * (the reaper's, the output pump's) is not counted per child.
	 */
	void descriptors(int n) throws Exception {
		SupervisorBuilder builder = BenchSupervisors.builder(this.work, "descriptors");
		for (int i = 0; i <= n; i++) {
			builder.child(ChildSpec.builder("child-" + i, SLEEPER)
				.autostart(false)
				.stopTimeout(Duration.ofSeconds(5))
				.build());
		}
		try (Supervisor supervisor = builder.build()) {
			supervisor.reconcile();
			startSampled(supervisor, 0, 1);
			long before = openDescriptors();
			startSampled(supervisor, 1, n + 1);
			long after = openDescriptors();
			String metric = "JVM descriptors per running child sampled once (sleep, defaults), N=" + n;
			this.results.add(metric, "descriptors, lower is better", "measured (/proc/self/fd after − before) ÷ N",
					(after - before) / (double) n);
			this.results.add(metric, "descriptors, lower is better", "the budget's perChild",
					supervisor.descriptors().perChild());
			this.results.add(metric, "descriptors, lower is better", "of which the sampler keeps, per child",
					(double) supervisor.descriptors().sampled() / (n + 1));
		}
	}

	/**
	 * Starts children {@code from} to {@code to} (excluded), and samples each once it
	 * runs.
	 */
	private static void startSampled(Supervisor supervisor, int from, int to) {
		for (int i = from; i < to; i++) {
			supervisor.start("child-" + i);
		}
		for (int i = from; i < to; i++) {
			String name = "child-" + i;
			awaitUntil(
					() -> supervisor.snapshot(name)
						.filter((child) -> child.state() == ChildState.RUNNING && child.pid() != null)
						.isPresent() && supervisor.usage(name).orElseThrow().processes() == 1,
					name + " RUNNING and sampled");
		}
	}

	private static long openDescriptors() throws IOException {
		try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
			return descriptors.count();
		}
	}

	/**
	 * Long-lived children under shepherds, spawned back to back without settings (A) and
	 * with limits and an OOM score (B), in short batches of {@link #SPAWN_BATCH} that
	 * alternate A B, B A, ... ({@code n} spawns of each kind in all): the ratio of the
	 * rates is taken per pair, so that a change of the machine's load lasting longer than
	 * a pair (a few hundred milliseconds) moves both of its batches, and the median and
	 * quartiles of the pairs are reported per round.
	 */
	void spawnRate(int n) throws Exception {
		try (Spawner spawner = new Spawner(15, Files.createDirectories(this.work.resolve("launcher")))) {
			CommandSettings settings = new CommandSettings(
					List.of(new CommandSettings.Limit(LimitedResource.OPEN_FILES, 1024, 1024),
							new CommandSettings.Limit(LimitedResource.CORE_SIZE, 0, 0),
							new CommandSettings.Limit(LimitedResource.PROCESSES, 4096, 4096)),
					500);
			int pairs = Math.max(4, n / SPAWN_BATCH);
			List<Double> ratios = new ArrayList<>();
			List<Double> withRates = new ArrayList<>();
			List<Double> withoutRates = new ArrayList<>();
			// Why one pair first, not counted: the launcher's first copies and the JIT
			// would weigh on pair one.
			rate(spawner, SPAWN_BATCH, CommandSettings.NONE);
			rate(spawner, SPAWN_BATCH, settings);
			for (int pair = 0; pair < pairs; pair++) {
				boolean settingsFirst = pair % 2 == 1;
				double first = rate(spawner, SPAWN_BATCH, settingsFirst ? settings : CommandSettings.NONE);
				double second = rate(spawner, SPAWN_BATCH, settingsFirst ? CommandSettings.NONE : settings);
				double with = settingsFirst ? first : second;
				double without = settingsFirst ? second : first;
				withRates.add(with);
				withoutRates.add(without);
				ratios.add(with / without);
			}
			List<Double> sorted = ratios.stream().sorted().toList();
			String metric = "Long-lived spawn throughput with limits and oom-score-adjust (shepherd), " + pairs
					+ " alternating pairs of " + SPAWN_BATCH + ", median of the batches";
			this.results.add(metric, "spawns/s, higher is better", "none", Results.median(withoutRates));
			this.results.add(metric, "spawns/s, higher is better", "3 limits and oom-score-adjust",
					Results.median(withRates));
			String ratio = "Spawn rate with limits and oom-score-adjust ÷ without, per pair of batches of "
					+ SPAWN_BATCH + " (A B, B A, ...), " + pairs + " pairs a round";
			this.results.add(ratio, "ratio, target ≥ 0.95", "median of the pairs", Results.median(ratios));
			this.results.add(ratio, "ratio, target ≥ 0.95", "first quartile", sorted.get(sorted.size() / 4));
			this.results.add(ratio, "ratio, target ≥ 0.95", "third quartile", sorted.get(sorted.size() * 3 / 4));
		}
	}

	private static double rate(Spawner spawner, int n, CommandSettings settings) throws Exception {
		List<Subject.Started> children = new ArrayList<>(n);
		long started = System.nanoTime();
		for (int i = 0; i < n; i++) {
			CompletableFuture<Long> exited = new CompletableFuture<>();
			SpawnedChild child = spawner.spawn(new SpawnRequest(SLEEPER, System.getenv(), null, Path.of("/dev/null"),
					null, true, null, false, settings), (pid, status) -> exited.complete(System.nanoTime()));
			children.add(new Subject.Started(child.pid(), exited, Shepherd.KILL_TREE_SIGNAL));
		}
		double rate = n / ((System.nanoTime() - started) / 1e9);
		Benchmarks.killAll(children);
		return rate;
	}

	/**
	 * A started supervisor of {@code n} children of two processes each, once every tree
	 * shows both.
	 */
	private Supervisor startedPairs(int n) throws Exception {
		Supervisor supervisor = supervisor(n, PAIR, ResourceLimits.NONE);
		try {
			supervisor.startAutostart();
			awaitUntil(
					() -> supervisor.snapshots()
						.stream()
						.allMatch((child) -> supervisor.usage(child.name()).orElseThrow().processes() == 2),
					"every tree of two processes");
			return supervisor;
		}
		catch (Exception | Error ex) {
			supervisor.close();
			throw ex;
		}
	}

	private Supervisor supervisor(int n, List<String> command, ResourceLimits resources) throws Exception {
		SupervisorBuilder builder = BenchSupervisors.builder(this.work, "resources");
		for (int i = 0; i < n; i++) {
			builder.child(ChildSpec.builder("child-" + i, command)
				.logFileEnabled(false)
				.stopTimeout(Duration.ofSeconds(5))
				.resources(resources)
				.build());
		}
		return builder.build();
	}

	private static void awaitUntil(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + AWAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("not reached within " + AWAIT + ": " + what);
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
	}

}
