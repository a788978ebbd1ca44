package dev.tether.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.OrphanPolicy;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.identity.ProcStat;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.reconcile.Reconciler;
import dev.tether.supervisor.internal.stop.StopLadder;
import dev.tether.supervisor.internal.stop.VerifiedProcess;
import dev.tether.supervisor.registry.FileChildRegistry;
import dev.tether.supervisor.registry.RegistryRow;

/**
 * What only Tether does, at scale: autostart against the raw spawner, {@code snapshots()}
 * while children are being stopped, reconciliation of a registry, and the tick. Every
 * supervisor made here is closed, so every child it started is stopped and reaped before
 * the row ends.
 */
final class SupervisorRows {

	private static final List<String> SLEEPER = List.of("/bin/sleep", "600");

	/**
	 * Ignores SIGTERM (an ignored disposition survives {@code exec}), so only the
	 * ladder's SIGKILL ends it.
	 */
	private static final List<String> TERM_IGNORING = List.of("/bin/sh", "-c", "trap '' TERM; exec /bin/sleep 600");

	private static final Duration AWAIT = Duration.ofSeconds(60);

	/** The runtime adds' batch, alternated with the spawner's. */
	private static final int ADD_BATCH = 100;

	private static final IdentityProbe PROBE = IdentityProbe.forPlatform();

	private final Results results;

	private final Path work;

	private final Subject spawner;

	SupervisorRows(Results results, Path work, Subject spawner) {
		this.results = results;
		this.work = work;
		this.spawner = spawner;
	}

	/**
	 * {@code startAutostart()} (what the starter calls at {@code ApplicationReadyEvent},
	 * after {@code reconcile()}) until all {@code n} children are {@code RUNNING},
	 * against the raw spawner starting {@code n} children just before: the supervisor
	 * spawns through that same spawner (its thread and the launcher), so the ratio is
	 * what supervision adds.
	 */
	void autostart(int n) throws Exception {
		double rawRate = rawSpawnRate(n);
		try (Supervisor supervisor = supervisor(n, SLEEPER, Duration.ofSeconds(5))) {
			supervisor.reconcile();
			long started = System.nanoTime();
			supervisor.startAutostart();
			awaitAll(supervisor, ChildState.RUNNING);
			reportRate("Autostart", "Supervisor.startAutostart()", n, started, rawRate);
		}
	}

	/**
	 * {@code n} children added to a running supervisor ({@link Supervisor#add}, which
	 * starts each and waits for its shepherd's command) from {@code threads} threads,
	 * against the spawner alone, in batches of {@link #ADD_BATCH} that alternate A B, B
	 * A, ...: each batch of adds is timed until all its children are {@code RUNNING} with
	 * a pid, each batch of the spawner's until its last spawn returns. The rates are
	 * those of the round's batches together, so that a change of the machine's speed
	 * lasting longer than a pair of batches (a few hundred milliseconds) moves both.
	 */
	void runtimeAdd(int n, int threads) throws Exception {
		// Why a pool of its own: the common pool has one thread on two cores.
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try (Supervisor supervisor = supervisor(0, SLEEPER, Duration.ofSeconds(5))) {
			supervisor.reconcile();
			long rawNanos = 0;
			long addNanos = 0;
			for (int from = 0; from < n; from += ADD_BATCH) {
				int to = Math.min(from + ADD_BATCH, n);
				boolean addsFirst = (from / ADD_BATCH) % 2 == 1;
				if (addsFirst) {
					addNanos += addBatch(supervisor, pool, threads, from, to);
				}
				rawNanos += this.spawner.timeStarts(SLEEPER, to - from);
				if (!addsFirst) {
					addNanos += addBatch(supervisor, pool, threads, from, to);
				}
			}
			String what = (threads == 1) ? "Runtime add" : "Runtime add from " + threads + " threads";
			String how = (threads == 1) ? "Supervisor.add(spec), one call each"
					: "Supervisor.add(spec) from " + threads + " threads";
			reportRates(what + ", batches of " + ADD_BATCH + " alternating with the spawner's", how, n,
					n / (rawNanos / 1e9), n / (addNanos / 1e9));
		}
		finally {
			pool.shutdownNow();
		}
	}

	/**
	 * Adds the children numbered {@code from} to {@code to}, shared by {@code threads}
	 * threads of the pool; the nanoseconds until all of them are {@code RUNNING} with a
	 * pid.
	 */
	private static long addBatch(Supervisor supervisor, ExecutorService pool, int threads, int from, int to)
			throws Exception {
		long started = System.nanoTime();
		List<CompletableFuture<Void>> adders = new ArrayList<>(threads);
		for (int t = 0; t < threads; t++) {
			int first = from + t;
			adders.add(CompletableFuture.runAsync(() -> {
				for (int i = first; i < to; i += threads) {
					supervisor.add(spec(i, SLEEPER, Duration.ofSeconds(5)));
				}
			}, pool));
		}
		CompletableFuture.allOf(adders.toArray(CompletableFuture[]::new)).get();
		awaitAll(supervisor, ChildState.RUNNING);
		return System.nanoTime() - started;
	}

	/**
	 * The rate of {@code n} children started since {@code started}, beside the spawner's
	 * alone, and their ratio.
	 */
	private void reportRate(String what, String how, int n, long started, double rawRate) {
		reportRates(what, how, n, rawRate, n / ((System.nanoTime() - started) / 1e9));
	}

	private void reportRates(String what, String how, int n, double rawRate, double rate) {
		String metric = what + " of " + n + " children to all RUNNING";
		this.results.add(metric, "children/s, higher is better", "Tether spawner alone (same round)", rawRate);
		this.results.add(metric, "children/s, higher is better", how, rate);
		this.results.add(what + " rate ÷ raw spawner rate, " + n + " children, per round", "ratio, target ≥ 0.7",
				"Tether", rate / rawRate);
	}

	/**
	 * Spawns {@code n} sleepers with the spawner alone, then kills them; its rate, in
	 * children per second.
	 */
	double rawSpawnRate(int n) throws Exception {
		return n / (this.spawner.timeStarts(SLEEPER, n) / 1e9);
	}

	/**
	 * {@code snapshots()} sampled every millisecond from this thread while
	 * {@code stopAll()} runs in another on {@code n} children that ignore SIGTERM: every
	 * stop stays in progress for the whole stop timeout, then escalates to SIGKILL, so
	 * the lock sees the ladder's polling and {@code n} exits.
	 */
	void snapshotsWhileStopping(int n) throws Exception {
		try (Supervisor supervisor = supervisor(n, TERM_IGNORING, Duration.ofSeconds(1))) {
			supervisor.startAutostart();
			awaitAll(supervisor, ChildState.RUNNING);
			// Why: until sh has run its trap and exec'd, a SIGTERM would still end it at
			// once; and a child's command pid is known a moment after it is RUNNING when
			// a shepherd starts it.
			awaitUntil(
					() -> supervisor.snapshots()
						.stream()
						.allMatch((child) -> child.pid() != null
								&& PROBE.stat(child.pid()).map((stat) -> stat.command().equals("sleep")).orElse(false)),
					"every child's command is sleep");
			CompletableFuture<Void> stopping = CompletableFuture.runAsync(supervisor::stopAll);
			List<Double> latencies = new ArrayList<>();
			while (!stopping.isDone()) {
				long started = System.nanoTime();
				supervisor.snapshots();
				latencies.add((System.nanoTime() - started) / 1e6);
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
			}
			stopping.get();
			String metric = "snapshots() while " + n + " children are stopped (TERM ignored, 1 s to SIGKILL)";
			this.results.add(metric + ", p50", "ms, lower is better", "Tether", Results.percentile(latencies, 50));
			this.results.add(metric + ", p99", "ms, target < 5", "Tether", Results.percentile(latencies, 99));
		}
	}

	/**
	 * Reconciles {@code n} rows whose pids name live processes that are not ours (the
	 * full verification path).
	 */
	void reconciliation(int n) throws Exception {
		List<Process> unrelated = new ArrayList<>(n);
		try {
			List<RegistryRow> rows = new ArrayList<>(n);
			String bootId = PROBE.bootId().orElse(null);
			for (int i = 0; i < n; i++) {
				Process process = new ProcessBuilder(SLEEPER).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
				unrelated.add(process);
				Long startTime = awaitCommand(process.pid(), "sleep").startTime();
				rows.add(new RegistryRow("child-" + i, "agent", "bench", process.pid(), process.pid(), startTime,
						bootId, "RUNNING", Instant.now(), 0, null));
			}
			ProcessSignaller signaller = new ProcessSignaller(PROBE);
			try (FileChildRegistry registry = FileChildRegistry.open(Files.createTempDirectory(this.work, "state"))) {
				registry.save(rows);
				long started = System.nanoTime();
				List<RegistryRow> loaded = registry.load();
				double loadMillis = (System.nanoTime() - started) / 1e6;
				Reconciler.Result result = new Reconciler(signaller).reconcile(new Owner("bench", "bench-instance"),
						loaded, OrphanPolicy.STOP, (name) -> false,
						(identity) -> new StopLadder.Request(new VerifiedProcess(identity, signaller), 15,
								Duration.ofSeconds(1)),
						Set.of());
				double millis = (System.nanoTime() - started) / 1e6;
				if (result.report().notOurs() != n) {
					throw new IllegalStateException("expected " + n + " rows not ours, got " + result.report());
				}
				this.results.add("Reconciliation of " + n + " rows (load + verify + /proc scan)", "ms, target ≤ 100",
						"Tether", millis);
				this.results.add("Registry load of " + n + " rows (part of the reconciliation above)",
						"ms, lower is better", "Tether", loadMillis);
			}
		}
		finally {
			unrelated.forEach(Process::destroyForcibly);
			for (Process process : unrelated) {
				process.waitFor();
			}
		}
	}

	/** The cost of one supervision tick with {@code n} live children. */
	void tick(int n) throws Exception {
		try (Supervisor supervisor = supervisor(n, SLEEPER, Duration.ofSeconds(5))) {
			supervisor.startAutostart();
			supervisor.tick();
			List<Double> ticks = new ArrayList<>();
			for (int i = 0; i < 50; i++) {
				long started = System.nanoTime();
				supervisor.tick();
				ticks.add((System.nanoTime() - started) / 1e6);
			}
			this.results.add("Tick with " + n + " live children, median of 50", "ms, lower is better", "Tether",
					Results.median(ticks));
		}
	}

	/**
	 * A supervisor of its own state directory and installation, with {@code n}
	 * autostarted children.
	 */
	private Supervisor supervisor(int n, List<String> command, Duration stopTimeout) throws Exception {
		SupervisorBuilder builder = BenchSupervisors.builder(this.work, "scale");
		for (int i = 0; i < n; i++) {
			builder.child(spec(i, command, stopTimeout));
		}
		return builder.build();
	}

	private static ChildSpec spec(int i, List<String> command, Duration stopTimeout) {
		// Why no file: a log file must be a regular file of ours; without one, the output
		// goes to /dev/null.
		return ChildSpec.builder("child-" + i, command).logFileEnabled(false).stopTimeout(stopTimeout).build();
	}

	/**
	 * Until every child is in that state with its command's pid known (a shepherd reports
	 * it a moment later).
	 */
	private static void awaitAll(Supervisor supervisor, ChildState state) {
		awaitUntil(
				() -> supervisor.snapshots()
					.stream()
					.allMatch((child) -> child.state() == state && child.pid() != null),
				"children all " + state + " with a pid");
	}

	private static void awaitUntil(BooleanSupplier condition, String what) {
		long deadline = System.nanoTime() + AWAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("not reached within " + AWAIT + ": " + what);
			}
			Thread.onSpinWait();
		}
	}

	private static ProcStat awaitCommand(long pid, String command) {
		awaitUntil(() -> PROBE.stat(pid).map((stat) -> stat.command().equals(command)).orElse(false),
				"pid " + pid + " runs " + command);
		return PROBE.stat(pid).orElseThrow(() -> new IllegalStateException("pid " + pid + " is gone"));
	}

}
