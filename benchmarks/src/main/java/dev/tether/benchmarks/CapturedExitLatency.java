package dev.tether.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * Exit detection latency (SIGKILL to the exit listener) beside children that write,
 * against the same beside idle children. {@code n} children run, all captured into file
 * sinks; after a settling time they are killed one at a time, each replaced at once so
 * that {@code n} stay alive, and the killed ones are the children measured. The writing
 * children write one line per period; the same writers appending to their files
 * themselves, not captured, tell the pump's share from the writers' own.
 */
final class CapturedExitLatency {

	private static final int SIGKILL = 9;

	/**
	 * How long the children run before the kills begin; the JVM's CPU and the lines
	 * written are taken over it.
	 */
	private static final Duration SETTLE = Duration.ofSeconds(2);

	private final Results results;

	private final Path work;

	private final Path writer;

	private final Spawner spawner;

	CapturedExitLatency(Results results, Path work, Path writer, Spawner spawner) {
		this.results = results;
		this.work = work;
		this.writer = writer;
		this.spawner = spawner;
	}

	/**
	 * Beside {@code n} idle children, then beside {@code n} writing one line per period,
	 * for each period.
	 */
	void run(int n, int... periodsMicros) throws Exception {
		List<String> idleCommand = List.of(this.writer.toString(), "idle");
		// Why a warm-up: the first kills and spawns of a JVM pay for class loading and
		// the JIT, which the idle baseline, measured first, would otherwise carry alone.
		latencies(n / 10, idleCommand, true);
		Latencies idle = latencies(n, idleCommand, true);
		report(n, "captured, all idle", idle);
		for (int period : periodsMicros) {
			List<String> paced = List.of(this.writer.toString(), "paced", Integer.toString(period));
			Latencies captured = latencies(n, paced, true);
			Latencies itself = latencies(n, paced, false);
			String every = String.format(Locale.ROOT, "a line every %.0f ms each", period / 1000.0);
			report(n, "captured, " + every, captured);
			report(n, "not captured (each appends to its file), " + every, itself);
			for (int percentile : new int[] { 50, 99 }) {
				String metric = "Exit detection latency p" + percentile + " beside writing children ÷ beside idle ones";
				double baseline = Results.percentile(idle.millis, percentile);
				this.results.add(metric, "ratio per round, target ≤ 1.5", "captured, " + every,
						Results.percentile(captured.millis, percentile) / baseline);
				this.results.add(metric, "ratio per round, target ≤ 1.5",
						"not captured, " + every + " (the writers' own share)",
						Results.percentile(itself.millis, percentile) / baseline);
			}
			this.results.add(
					"Lines written by " + n + " children writing, over the " + SETTLE.toSeconds()
							+ " s before the kills",
					"lines/s", "captured, " + every + " (asked: " + n * 1_000_000L / period + "/s)",
					captured.linesPerSecond);
			this.results.add("Lines written by " + n + " children writing, over the " + SETTLE.toSeconds()
					+ " s before the kills", "lines/s", "not captured, " + every, itself.linesPerSecond);
		}
	}

	private void report(int n, String subject, Latencies latencies) {
		String unit = "ms from SIGKILL to the exit listener, lower is better";
		this.results.add("Exit detection latency p50, " + n + " children", unit, subject,
				Results.percentile(latencies.millis, 50));
		this.results.add("Exit detection latency p99, " + n + " children", unit, subject,
				Results.percentile(latencies.millis, 99));
		String cpu = "JVM CPU with " + n + " children, over the " + SETTLE.toSeconds() + " s before the kills";
		this.results.add(cpu, "% of one core", subject, latencies.jvmCpuShare * 100);
		if (latencies.captured) {
			this.results.add(cpu, "% of one core", subject + ": supervisor-output threads",
					latencies.pumpCpuShare * 100);
		}
	}

	private record Latencies(boolean captured, List<Double> millis, double linesPerSecond, double jvmCpuShare,
			double pumpCpuShare) {
	}

	private Latencies latencies(int n, List<String> command, boolean capture) throws Exception {
		Path directory = Files.createTempDirectory(this.work, "output-latency");
		List<Slot> slots = new ArrayList<>(n);
		List<Child> children = new ArrayList<>(n);
		try {
			for (int i = 0; i < n; i++) {
				Path file = directory.resolve("latency-" + i + ".log");
				slots.add(new Slot(file, capture
						? new ChildOutput("latency-" + i, OutputRows.fileSink(10L * 1024 * 1024, 1), file) : null));
				children.add(start(command, slots.get(i)));
			}
			OutputRows.awaitUntil(() -> slots.stream().allMatch((slot) -> slot.written() >= OutputRows.LINE),
					"every child wrote a line");
			long writtenBefore = written(slots);
			CpuTime before = CpuTime.now();
			long settling = System.nanoTime();
			Pause.of(SETTLE);
			double settled = (System.nanoTime() - settling) / 1e9;
			CpuTime after = CpuTime.now();
			double linesPerSecond = (written(slots) - writtenBefore) / (double) OutputRows.LINE / settled;
			List<Double> millis = new ArrayList<>(n);
			for (int i = 0; i < n; i++) {
				Child child = children.get(i);
				long killed = System.nanoTime();
				if (!Reaper.shared().signalGroupUnreaped(child.pid, SIGKILL)) {
					throw new IllegalStateException("child " + child.pid + " exited before it was killed");
				}
				millis.add((child.exited.get(10, TimeUnit.SECONDS) - killed) / 1e6);
				children.set(i, start(command, slots.get(i)));
			}
			return new Latencies(capture, millis, linesPerSecond, (after.jvm() - before.jvm()) / settled,
					after.pump(before) / settled);
		}
		finally {
			for (Child child : children) {
				Reaper.shared().signalGroupUnreaped(child.pid, SIGKILL);
			}
			for (Child child : children) {
				child.exited.get(30, TimeUnit.SECONDS);
			}
			OutputRows.clear(directory);
			Files.delete(directory);
		}
	}

	private static long written(List<Slot> slots) {
		return slots.stream().mapToLong(Slot::written).sum();
	}

	/** Where one child writes: its file, through the pump or not. */
	private record Slot(Path file, @Nullable ChildOutput output) {

		long written() {
			if (this.output != null) {
				return this.output.bytes();
			}
			try {
				return Files.exists(this.file) ? Files.size(this.file) : 0;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	private record Child(long pid, CompletableFuture<Long> exited) {
	}

	private Child start(List<String> command, Slot slot) throws Exception {
		CompletableFuture<Long> exited = new CompletableFuture<>();
		long pid = this.spawner
			.spawn(new SpawnRequest(command, System.getenv(), null, slot.file, null, false, slot.output),
					(p, status) -> exited.complete(System.nanoTime()))
			.pid();
		return new Child(pid, exited);
	}

}
