package dev.tether.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.os.PosixSpawn;
import dev.tether.supervisor.internal.reaper.Reaper;

/**
 * Measures, in one run and side by side, Tether's spawn next to ProcessBuilder,
 * commons-exec, zt-exec, NuProcess and posix_spawn in C; then what only Tether does
 * (parent death, autostart, {@code snapshots()} while children stop, reconciliation, the
 * tick, an application's start with many children, what capturing their output costs,
 * what sampling and bounding their resources and descriptors costs, what a client sees
 * while a server is restarted with and without socket activation), and supervised MCP
 * servers against Spring AI's own stdio transport, in this JVM and in applications (a
 * server's death, broken servers at start).
 * <p>
 * Arguments:
 * {@code <spawn-limit-binary> <work-directory> [rounds] [long-n] [short-n] [memory-n] [latency-n]};
 * the system property {@code benchmarks.only} (comma-separated words) runs only the
 * phases whose names hold one, and {@code benchmarks.warmup} runs that many rounds first
 * without counting them (the JIT's first compilations of each path then fall outside the
 * figures). The output rows run {@code line-writer}, the probe rows {@code http-ok}, the
 * MCP rows {@code mcp-echo}, the restart rows {@code line-server} and the resources
 * view's C limit {@code proc-floor}, all compiled next to the spawn-limit binary.
 */
public final class Benchmarks {

	private static final List<String> SLEEPER = List.of("/bin/sleep", "600");

	private static final List<String> QUICK = List.of("/bin/true");

	private static final String BINDING_ALONE = "Tether binding alone (no spawner thread, no launcher)";

	private final Results results = new Results();

	private final Map<String, Double> longLivedThisRound = new HashMap<>();

	private final Path limit;

	private final Path work;

	private Benchmarks(Path limit, Path work) {
		this.limit = limit;
		this.work = work;
	}

	public static void main(String[] args) throws Exception {
		if (args[0].equals("footprint")) {
			footprintInThisJvm(args[1], Integer.parseInt(args[2]), Path.of(args[3]));
			return;
		}
		if (args[0].equals("mcp-threads")) {
			McpRows.threadsInThisJvm(args[1], Integer.parseInt(args[2]), Path.of(args[3]));
			return;
		}
		Path limit = Path.of(args[0]);
		Path work = Files.createDirectories(Path.of(args[1]));
		int rounds = intArg(args, 2, 3);
		int longN = intArg(args, 3, 500);
		int shortN = intArg(args, 4, 500);
		int memoryN = intArg(args, 5, 1000);
		int latencyN = intArg(args, 6, 100);
		Benchmarks benchmarks = new Benchmarks(limit, work);
		List<Subject> subjects = Subjects.all(work);
		SupervisorRows scale = new SupervisorRows(benchmarks.results, work, subjects.get(0));
		ParentDeathRows parentDeath = new ParentDeathRows(benchmarks.results, work);
		OutputRows output = new OutputRows(benchmarks.results, work, limit.resolveSibling("line-writer"));
		ProbeRows probes = new ProbeRows(benchmarks.results, work, limit.resolveSibling("http-ok"));
		ResourceRows resources = new ResourceRows(benchmarks.results, work, limit.resolveSibling("proc-floor"));
		McpRows mcp = new McpRows(benchmarks.results, work);
		McpApplicationRows mcpApplication = new McpApplicationRows(benchmarks.results, work);
		NotifyRows notify = new NotifyRows(benchmarks.results, work, limit.resolveSibling("notify-beat"));
		RestartRows restarts = new RestartRows(benchmarks.results, work, limit.resolveSibling("line-server"));
		ApplicationRows application = new ApplicationRows(benchmarks.results, work, scale);
		ScaleApplicationRows scaleApplication = new ScaleApplicationRows(benchmarks.results, work);
		DescriptorSpawnRows descriptorSpawns = new DescriptorSpawnRows(benchmarks.results, subjects.get(0));
		long started = System.nanoTime();
		int warmUp = Integer.getInteger("benchmarks.warmup", 0);
		for (int round = 1 - warmUp; round <= rounds; round++) {
			benchmarks.results.recording(round >= 1);
			System.err.println((round >= 1) ? "round " + round + " of " + rounds : "warm-up round, not counted");
			for (Subject subject : subjects) {
				timed(subject.name() + " long-lived", () -> benchmarks.longLived(subject, longN));
				timed(subject.name() + " short-lived", () -> benchmarks.shortLived(subject, shortN));
				timed(subject.name() + " footprint", () -> benchmarks.footprint(subject, memoryN));
				timed(subject.name() + " exit latency", () -> benchmarks.exitLatency(subject, latencyN));
			}
			benchmarks.shepherdSpawnRatios(longN);
			timed("Tether binding alone", () -> benchmarks.bindingAlone(longN));
			timed("C limit", () -> benchmarks.limit(longN, shortN, latencyN));
			timed("parent death", () -> parentDeath.run(latencyN));
			timed("spawn beside held descriptors", () -> descriptorSpawns.spawnCost(300));
			timed("autostart", () -> scale.autostart(1000));
			timed("runtime add", () -> scale.runtimeAdd(1000, 1));
			timed("runtime add concurrently", () -> scale.runtimeAdd(1000, 4));
			timed("snapshots while stopping", () -> scale.snapshotsWhileStopping(latencyN));
			timed("reconciliation", () -> scale.reconciliation(1000));
			timed("tick", () -> scale.tick(1000));
			timed("probe cost", () -> probes.cost(500));
			timed("port ownership ticks", () -> probes.portTicks(1000));
			timed("notify watchdogs", () -> notify.watchdogs(500, Duration.ofSeconds(60)));
			timed("notify ready latency", () -> notify.readyLatency(latencyN));
			timed("socket activation restarts", () -> restarts.restarts(20));
			timed("socket activation application restarts", () -> restarts.applicationRestarts(20));
			timed("application start", () -> application.start(1000));
			timed("application autostart", () -> application.autostart(1000));
			// Why only when named: 20,000 processes and a minute of observation, once a
			// round, would double a full run.
			timedWhenNamed("application scale", () -> scaleApplication.run(10_000, Duration.ofSeconds(60)));
			timed("output throughput", () -> output.throughput(10_000_000));
			timed("output exit latency", () -> output.exitLatency(latencyN, 10_000, 2_000, 1_000));
			timed("output slow sink", () -> output.slowSink(30));
			timed("output threads", () -> output.threads(memoryN));
			timed("resources sampling", () -> resources.sampling(1000));
			timed("resources scrape", () -> resources.scrape(1000));
			timed("resources tick", () -> resources.tick(1000));
			timed("resources spawn", () -> resources.spawnRate(longN));
			timed("resources descriptors", () -> resources.descriptors(latencyN));
			timed("mcp round trip", () -> mcp.roundTrip(limit.resolveSibling("mcp-echo"), 5000));
			timed("mcp first call 1", () -> mcp.firstCall(1));
			timed("mcp first call 20", () -> mcp.firstCall(20));
			timed("mcp threads", () -> mcp.threads(20));
			timed("mcp death", mcpApplication::death);
			timed("mcp optional broken", () -> mcpApplication.start(3));
			timed("mcp required broken", mcpApplication::requiredBroken);
		}
		subjects.forEach(Subject::close);
		output.close();
		System.out.printf("## Results: %d rounds, %d cores, %s, %d s%n", rounds,
				Runtime.getRuntime().availableProcessors(),
				System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
				TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
		System.out.println(benchmarks.results.toMarkdown());
	}

	private static void timed(String phase, Phase work) throws Exception {
		if (System.getProperty("benchmarks.only", "").isBlank() || named(phase)) {
			run(phase, work);
		}
	}

	/** A phase that runs only when {@code benchmarks.only} names it. */
	private static void timedWhenNamed(String phase, Phase work) throws Exception {
		if (named(phase)) {
			run(phase, work);
		}
	}

	private static boolean named(String phase) {
		String only = System.getProperty("benchmarks.only", "");
		return !only.isBlank() && Arrays.stream(only.split(",")).anyMatch((word) -> phase.contains(word.trim()));
	}

	private static void run(String phase, Phase work) throws Exception {
		long started = System.nanoTime();
		work.run();
		System.err.printf("  %-32s %6.1f s%n", phase, (System.nanoTime() - started) / 1e9);
	}

	@FunctionalInterface
	private interface Phase {

		void run() throws Exception;

	}

	private static int intArg(String[] args, int index, int fallback) {
		return (args.length > index) ? Integer.parseInt(args[index]) : fallback;
	}

	private void longLived(Subject subject, int n) throws Exception {
		List<Subject.Started> children = new ArrayList<>(n);
		double cpu = CpuTime.jvmNow();
		long started = System.nanoTime();
		for (int i = 0; i < n; i++) {
			children.add(subject.start(SLEEPER));
		}
		double rate = n / ((System.nanoTime() - started) / 1e9);
		this.results.add("Long-lived spawn throughput, N=" + n, "spawns/s, higher is better", subject.name(), rate);
		recordCpu("JVM CPU per long-lived spawn, N=" + n, subject.name(), cpu, n);
		this.longLivedThisRound.put(subject.name(), rate);
		killAll(children);
	}

	/**
	 * What the shepherd costs a long-lived spawn, per round: its rate against Tether's
	 * without one and against ProcessBuilder, all three measured moments apart in the
	 * same round.
	 */
	private void shepherdSpawnRatios(int n) {
		Double shepherd = this.longLivedThisRound.get("Tether (shepherd)");
		Double without = this.longLivedThisRound.get("Tether (no shepherd)");
		Double processBuilder = this.longLivedThisRound.get("ProcessBuilder");
		if (shepherd != null && without != null) {
			this.results.add("Long-lived spawn rate with the shepherd, per round, N=" + n,
					"ratio, target ≥ 0.8 and > 1", "÷ Tether without it (target ≥ 0.8)", shepherd / without);
		}
		if (shepherd != null && processBuilder != null) {
			this.results.add("Long-lived spawn rate with the shepherd, per round, N=" + n,
					"ratio, target ≥ 0.8 and > 1", "÷ ProcessBuilder (target > 1)", shepherd / processBuilder);
		}
		this.longLivedThisRound.clear();
	}

	/**
	 * Tether's {@code posix_spawnp} binding called from this thread, without the spawner
	 * thread's handoff, the executable check or the launcher: what the promise costs is
	 * the gap between this row and Tether's.
	 */
	private void bindingAlone(int n) throws Exception {
		List<String> env = new ArrayList<>();
		System.getenv().forEach((key, value) -> env.add(key + "=" + value));
		Path devNull = Path.of("/dev/null");
		List<Subject.Started> children = new ArrayList<>(n);
		double cpu = CpuTime.jvmNow();
		long started = System.nanoTime();
		for (int i = 0; i < n; i++) {
			CompletableFuture<Long> exited = new CompletableFuture<>();
			long pid = Reaper.shared()
				.spawnRegistered(
						() -> PosixSpawn.spawn(SLEEPER.get(0), SLEEPER, env, devNull,
								new PosixSpawn.Output.AppendTo(devNull), null, null),
						(p, status) -> exited.complete(System.nanoTime()));
			children.add(new Subject.Started(pid, exited));
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		this.results.add("Long-lived spawn throughput, N=" + n, "spawns/s, higher is better", BINDING_ALONE,
				n / seconds);
		recordCpu("JVM CPU per long-lived spawn, N=" + n, BINDING_ALONE, cpu, n);
		killAll(children);
	}

	private void shortLived(Subject subject, int n) throws Exception {
		double cpu = CpuTime.jvmNow();
		long started = System.nanoTime();
		for (int i = 0; i < n; i++) {
			subject.start(QUICK).exitedAt().get(10, TimeUnit.SECONDS);
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		this.results.add("Short-lived spawn+exit throughput, N=" + n, "spawns/s, higher is better", subject.name(),
				n / seconds);
		recordCpu("JVM CPU per short-lived spawn+exit, N=" + n, subject.name(), cpu, n);
	}

	/**
	 * The JVM's CPU time per spawn since {@code cpuBefore}: what a spawn costs the
	 * application's cores, whoever spends it (the calling thread, a spawner or reaper
	 * thread, the JIT). Why beside the rate: a rate carries the machine's scheduling (a
	 * shared core, the other build), which moves it by 10 % or more between runs here;
	 * the CPU a process spends moves far less, so a small difference between two backends
	 * shows in it first.
	 */
	private void recordCpu(String metric, String subject, double cpuBefore, int n) {
		this.results.add(metric, "µs of the whole JVM's CPU time, lower is better", subject,
				(CpuTime.jvmNow() - cpuBefore) * 1e6 / n);
	}

	/**
	 * Threads and RSS per live child, measured in a fresh JVM per subject: in this one,
	 * thread pools left by the throughput phases (the JDK's process reapers idle for a
	 * minute) would hide the cost.
	 */
	private void footprint(Subject subject, int n) throws Exception {
		Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-cp",
				System.getProperty("java.class.path"), Benchmarks.class.getName(), "footprint", subject.name(),
				Integer.toString(n), this.work.toString())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String[] figures = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
		if (jvm.waitFor() != 0 || figures.length != 3) {
			throw new IllegalStateException("footprint of " + subject.name() + " failed");
		}
		this.results.add("JVM threads added per live child, N=" + n, "threads, lower is better", subject.name(),
				Double.parseDouble(figures[0]));
		this.results.add("JVM RSS added per live child, N=" + n, "KB, lower is better", subject.name(),
				Double.parseDouble(figures[1]));
		this.results.add("Unique memory of each process spawned (Pss_Anon + VmPTE), average of N=" + n,
				"KB, lower is better; the shepherd's target ≤ 64", subject.name(), Double.parseDouble(figures[2]));
	}

	private static void footprintInThisJvm(String name, int n, Path work) throws Exception {
		Subject subject = Subjects.all(work).stream().filter((s) -> s.name().equals(name)).findFirst().orElseThrow();
		// Why as many spawns as are measured, ended first: one-time costs must not be
		// counted per child, and some last longer than the first spawn (class loading,
		// and the JIT compiling the spawn path: on JDK 25 the FFM backend's downcalls are
		// compiled over the first thousand spawns, which added about 10 KB per child to a
		// run of 1,000 without this, and 0.3 KB to a run of 3,000). Why one at a time: a
		// pool that a subject keeps per live child (ProcessBuilder's reaper threads, idle
		// for a minute) must not be left larger than one.
		for (int warmed = 0; warmed < n; warmed++) {
			killAll(List.of(subject.start(SLEEPER)));
		}
		System.gc();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		long rssBefore = rssKb();
		List<Subject.Started> children = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			children.add(subject.start(SLEEPER));
		}
		int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
		long rssAfter = rssKb();
		long uniqueKb = 0;
		for (Subject.Started child : children) {
			uniqueKb += UniqueMemory.settledKb(child.pid());
		}
		killAll(children);
		System.out.printf(java.util.Locale.ROOT, "%.4f %.2f %.2f%n", (threadsAfter - threadsBefore) / (double) n,
				(rssAfter - rssBefore) / (double) n, uniqueKb / (double) n);
	}

	private void exitLatency(Subject subject, int n) throws Exception {
		List<Subject.Started> children = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			children.add(subject.start(SLEEPER));
		}
		List<Double> latencies = new ArrayList<>(n);
		for (Subject.Started child : children) {
			long killed = System.nanoTime();
			kill(child);
			latencies.add((child.exitedAt().get(10, TimeUnit.SECONDS) - killed) / 1e6);
		}
		recordLatency(subject.name(), latencies);
	}

	private void recordLatency(String subject, List<Double> latencies) {
		this.results.add("Exit detection latency p50, " + latencies.size() + " children",
				"ms from SIGKILL to the exit callback, lower is better", subject, Results.percentile(latencies, 50));
		this.results.add("Exit detection latency p99, " + latencies.size() + " children",
				"ms from SIGKILL to the exit callback, lower is better", subject, Results.percentile(latencies, 99));
	}

	private void limit(int longN, int shortN, int latencyN) throws Exception {
		String name = "C posix_spawn";
		this.results.add("Long-lived spawn throughput, N=" + longN, "spawns/s, higher is better", name,
				Double.parseDouble(runLimit("long", longN)[1]));
		this.results.add("Short-lived spawn+exit throughput, N=" + shortN, "spawns/s, higher is better", name,
				Double.parseDouble(runLimit("short", shortN)[1]));
		String[] latency = runLimit("latency", latencyN);
		List<Double> latencies = new ArrayList<>();
		for (String value : Arrays.copyOfRange(latency, 1, latency.length)) {
			latencies.add(Double.parseDouble(value) / 1000);
		}
		recordLatency(name, latencies);
	}

	private String[] runLimit(String mode, int n) throws Exception {
		Process process = new ProcessBuilder(this.limit.toString(), mode, Integer.toString(n))
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
		if (process.waitFor() != 0) {
			throw new IllegalStateException(this.limit + " " + mode + " failed");
		}
		return output.split(" ");
	}

	static void killAll(List<Subject.Started> children) throws Exception {
		for (Subject.Started child : children) {
			kill(child);
		}
		for (Subject.Started child : children) {
			child.exitedAt().get(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * Our own unreaped child, so its pid cannot have been reused before its exit is
	 * reported.
	 */
	private static void kill(Subject.Started child) {
		Posix.get().kill(child.pid(), child.killSignal());
	}

	private static long rssKb() throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
			if (line.startsWith("VmRSS:")) {
				return Long.parseLong(line.replaceAll("[^0-9]", ""));
			}
		}
		return 0;
	}

}
