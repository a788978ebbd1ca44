package dev.tether.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildSpecBuilder;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;

/**
 * What the notify protocol's watchdog costs the JVM: {@code n} children (a small C
 * program each, {@code notify-beat}) that say {@code READY=1} and then send
 * {@code WATCHDOG=1} every half period, against the same {@code n} children without
 * {@code readiness.notify} nor a watchdog. The supervisor is ticked every 200 ms on this
 * thread, as the starter does, its CPU time per tick measured; over the window no child
 * may be restarted (a false watchdog miss).
 */
final class NotifyRows {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final Duration WATCHDOG = Duration.ofSeconds(1);

	private final Results results;

	private final Path work;

	private final Path beat;

	NotifyRows(Results results, Path work, Path beat) {
		this.results = results;
		this.work = work;
		this.beat = beat;
	}

	void watchdogs(int n, Duration window) throws Exception {
		Measure without = measure(n, false, window);
		Measure with = measure(n, true, window);
		long beats = n * window.toMillis() / (WATCHDOG.toMillis() / 2);
		String metric = "Watchdog: " + n + " children, liveness.watchdog 1 s, WATCHDOG=1 every 500 ms, over "
				+ window.toSeconds() + " s";
		this.results.add(metric + ", children restarted (false watchdog misses)", "restarts, lower is better", "Tether",
				with.restarts);
		this.results.add(metric + ", JVM CPU per WATCHDOG=1 (with − without notify)", "µs, lower is better", "Tether",
				(with.cpuSeconds - without.cpuSeconds) / beats * 1e6);
		this.results.add(metric + ", JVM CPU of all the watchdogs (with − without notify)",
				"% of one core, lower is better", "Tether",
				100 * (with.cpuSeconds - without.cpuSeconds) / window.toSeconds());
		this.results.add(metric + ", JVM threads added by notify (with − without)", "threads, lower is better",
				"Tether", with.threads - without.threads);
		this.results.add(metric + ", tick CPU time p50", "ms, lower is better", "Tether", with.tickP50);
		this.results.add(metric + ", tick CPU time p99", "ms, lower is better", "Tether", with.tickP99);
	}

	/**
	 * The time from a child's {@code READY=1} to {@code RUNNING} in the supervisor's
	 * snapshot, beside the time from a child's {@code listen()} on its port to the same,
	 * each over {@code n} starts of one child. Both ends read {@code CLOCK_MONOTONIC}:
	 * the child just before it sends or listens ({@code notify-beat}'s stamp file), this
	 * thread once a snapshot shows the child {@code RUNNING}; it ticks every 200 ms
	 * meanwhile, as the starter does.
	 */
	void readyLatency(int n) throws Exception {
		List<Long> notify = startLatencies(n, true);
		List<Long> port = startLatencies(n, false);
		String metric = "Readiness: child's READY=1 (or its listen() on its port) to RUNNING in the snapshot, " + n
				+ " starts, tick every 200 ms";
		this.results.add(metric + ", READY=1 p50", "ms, lower is better", "Tether", ProbeRows.percentile(notify, 50));
		this.results.add(metric + ", READY=1 p99", "ms, lower is better", "Tether", ProbeRows.percentile(notify, 99));
		this.results.add(metric + ", port accepting p50", "ms, lower is better", "Tether",
				ProbeRows.percentile(port, 50));
		this.results.add(metric + ", port accepting p99", "ms, lower is better", "Tether",
				ProbeRows.percentile(port, 99));
	}

	private List<Long> startLatencies(int n, boolean notify) throws Exception {
		int port = notify ? 0 : ProbeRows.freePorts(1).get(0);
		Path stamp = this.work.resolve("ready-stamp");
		ChildSpecBuilder child = ChildSpec
			.builder("ready", List.of(this.beat.toString(), "500", stamp.toString(), Integer.toString(port)))
			.autostart(false)
			.logFileEnabled(false);
		child = notify ? child.readinessNotify(true) : child.port(port);
		List<Long> latencies = new ArrayList<>(n);
		try (Supervisor supervisor = BenchSupervisors.builder(this.work, "ready").child(child.build()).build()) {
			for (int i = 0; i < n; i++) {
				Files.deleteIfExists(stamp);
				supervisor.start("ready");
				long seen = awaitRunning(supervisor);
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
				while (!Files.exists(stamp) || Files.size(stamp) == 0) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("the child wrote no stamp within 10 s");
					}
					Thread.onSpinWait();
				}
				latencies.add(seen - Long.parseLong(Files.readString(stamp).trim()));
				supervisor.stop("ready");
			}
		}
		return latencies;
	}

	/** When a snapshot first showed the child {@code RUNNING}, ticking every 200 ms. */
	private static long awaitRunning(Supervisor supervisor) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		long nextTick = System.nanoTime();
		while (true) {
			ChildState state = supervisor.snapshot("ready").orElseThrow().state();
			long now = System.nanoTime();
			if (state == ChildState.RUNNING) {
				return now;
			}
			if (now > deadline) {
				throw new IllegalStateException("the child was not RUNNING within 30 s: " + state);
			}
			if (now >= nextTick) {
				supervisor.tick();
				nextTick = now + TimeUnit.MILLISECONDS.toNanos(200);
			}
			Thread.onSpinWait();
		}
	}

	private Measure measure(int n, boolean notify, Duration window) throws Exception {
		try (Supervisor supervisor = supervisor(n, notify)) {
			supervisor.startAutostart();
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
			while (!supervisor.snapshots().stream().allMatch((child) -> child.state() == ChildState.RUNNING)) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("children not RUNNING within 120 s");
				}
				supervisor.tick();
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
			}
			int restartsBefore = restarts(supervisor);
			List<Long> ticks = new ArrayList<>();
			int threads = 0;
			double cpuBefore = CpuTime.jvmNow();
			long end = System.nanoTime() + window.toNanos();
			while (System.nanoTime() < end) {
				long before = THREADS.getCurrentThreadCpuTime();
				supervisor.tick();
				ticks.add(THREADS.getCurrentThreadCpuTime() - before);
				threads = Math.max(threads, Thread.activeCount());
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
			}
			double cpu = CpuTime.jvmNow() - cpuBefore;
			return new Measure(cpu, restarts(supervisor) - restartsBefore, threads, ProbeRows.percentile(ticks, 50),
					ProbeRows.percentile(ticks, 99));
		}
	}

	private static int restarts(Supervisor supervisor) {
		return supervisor.snapshots().stream().mapToInt(ChildSnapshot::restarts).sum();
	}

	private Supervisor supervisor(int n, boolean notify) throws IOException {
		SupervisorBuilder builder = BenchSupervisors.builder(this.work, "notify");
		for (int i = 0; i < n; i++) {
			ChildSpecBuilder child = ChildSpec.builder("beat-" + i, List.of(this.beat.toString(), "500"))
				.logFileEnabled(false);
			builder.child(notify ? child.readinessNotify(true).livenessWatchdog(WATCHDOG).build() : child.build());
		}
		return builder.build();
	}

	private record Measure(double cpuSeconds, int restarts, int threads, double tickP50, double tickP99) {
	}

}
