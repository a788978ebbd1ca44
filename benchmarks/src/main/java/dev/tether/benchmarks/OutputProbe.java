package dev.tether.benchmarks;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.event.Level;

import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.output.LogSettings;

/**
 * The output rows that need a JVM of their own, so that nothing another phase left (pool
 * threads, garbage, buffers) is counted. Arguments:
 * {@code <work-directory> threads <line-writer> <n>} prints the threads added per child,
 * the threads added in all and the RSS (KB) added per child, with {@code n} live captured
 * children; {@code <work-directory> slow-sink <line-writer> <lines> <seconds>} prints the
 * heap growth after GC (KB) one second in, at the end and at most (sampled once a
 * second), the direct buffer growth (KB), the bytes the pump received and the bytes the
 * slowed sink wrote.
 */
public final class OutputProbe {

	private static final int SIGKILL = 9;

	/** What the slowed sink writes per second. */
	private static final long SINK_RATE = 1_000_000;

	private final Path work;

	private final String writer;

	private final Spawner spawner;

	private OutputProbe(Path work, String writer) {
		this.work = work;
		this.writer = writer;
		this.spawner = new Spawner(15, work.resolve("launcher"));
	}

	/** Runs a probe in a fresh JVM and returns the figures it printed. */
	static String[] run(Path work, String... args) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
				"-Dorg.slf4j.simpleLogger.log.tether.child=info", "-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-cp",
				System.getProperty("java.class.path"), OutputProbe.class.getName(), work.toString()));
		command.addAll(List.of(args));
		Process jvm = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
		if (!jvm.waitFor(300, TimeUnit.SECONDS) || jvm.exitValue() != 0) {
			jvm.destroyForcibly().waitFor();
			throw new IllegalStateException("output probe " + String.join(" ", args) + " failed: " + output);
		}
		return output.split(" ");
	}

	public static void main(String[] args) {
		PrintStream err = System.err;
		try {
			OutputProbe probe = new OutputProbe(Path.of(args[0]), args[2]);
			switch (args[1]) {
				case "threads" -> probe.threads(Integer.parseInt(args[3]));
				case "slow-sink" -> probe.slowSink(Long.parseLong(args[3]), Integer.parseInt(args[4]));
				default -> throw new IllegalArgumentException("probe must be threads or slow-sink, not " + args[1]);
			}
			System.exit(0);
		}
		catch (Throwable ex) {
			// Why the saved stream: the slow-sink probe replaces System.err with the
			// slowed sink.
			ex.printStackTrace(err);
			System.exit(1);
		}
	}

	private void threads(int n) throws Exception {
		Path directory = Files.createTempDirectory(this.work, "output-threads");
		// Warm the spawn path (the spawner's thread, the reaper) without capture: only
		// what capture adds is counted.
		List<Started> warm = List.of(start(List.of(this.writer, "idle"), null, Path.of("/dev/null")));
		end(warm);
		System.gc();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		long rssBefore = rssKb();
		List<ChildOutput> outputs = new ArrayList<>(n);
		List<Started> children = new ArrayList<>(n);
		try {
			for (int i = 0; i < n; i++) {
				Path file = directory.resolve("threads-" + i + ".log");
				outputs.add(new ChildOutput("threads-" + i, OutputRows.fileSink(10L * 1024 * 1024, 1), file));
				children.add(start(List.of(this.writer, "idle"), outputs.get(i), file));
			}
			OutputRows.awaitUntil(() -> outputs.stream().allMatch((output) -> output.lines() == 1),
					"every child's line was received");
			int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
			long rssAfter = rssKb();
			System.out.printf(Locale.ROOT, "%.4f %d %.2f%n", (threadsAfter - threadsBefore) / (double) n,
					threadsAfter - threadsBefore, (rssAfter - rssBefore) / (double) n);
		}
		finally {
			end(children);
			OutputRows.clear(directory);
			Files.delete(directory);
		}
	}

	private void slowSink(long lines, int seconds) throws Exception {
		SlowStream sink = new SlowStream(SINK_RATE);
		// Why System.err: slf4j-simple, the benchmarks' SLF4J provider, writes every
		// event to System.err as it is at that moment; so the logger sink's appender is
		// this stream.
		System.setErr(new PrintStream(sink, true, StandardCharsets.UTF_8));
		LogSettings loggerOnly = new LogSettings(null, false, 10L * 1024 * 1024, 1, true, Level.WARN,
				OutputRows.MAX_LINE_LENGTH);
		// Why a warm child first: the pump's threads and their buffers, and the logger
		// exist before the first sample, so the growth is what the slow child holds.
		ChildOutput warm = new ChildOutput("warm", loggerOnly, this.work.resolve("warm.log"));
		Started warmed = start(List.of(this.writer, "fast", "1000"), warm, this.work.resolve("warm.log"));
		OutputRows.awaitUntil(() -> warm.lines() == 1000 && warmed.exited.isDone(), "the warm child is done");
		long heapStart = heapAfterGc();
		long directStart = directBytes();
		ChildOutput slow = new ChildOutput("slow", loggerOnly, this.work.resolve("slow.log"));
		Started child = start(List.of(this.writer, "fast", Long.toString(lines)), slow, this.work.resolve("slow.log"));
		List<Long> heap = new ArrayList<>(seconds);
		try {
			for (int second = 0; second < seconds; second++) {
				Pause.of(Duration.ofSeconds(1));
				heap.add(heapAfterGc() - heapStart);
			}
			if (child.exited.isDone()) {
				throw new IllegalStateException("the slow child ended early: its writes did not wait on the sink");
			}
			System.out.printf(Locale.ROOT, "%.1f %.1f %.1f %.1f %d %d%n", heap.get(0) / 1024.0,
					heap.get(heap.size() - 1) / 1024.0, Collections.max(heap) / 1024.0,
					(directBytes() - directStart) / 1024.0, slow.bytes(), sink.written());
		}
		finally {
			end(List.of(child));
		}
	}

	private record Started(long pid, CompletableFuture<Void> exited) {
	}

	private Started start(List<String> command, ChildOutput output, Path file) throws Exception {
		CompletableFuture<Void> exited = new CompletableFuture<>();
		long pid = this.spawner
			.spawn(new SpawnRequest(command, System.getenv(), null, file, null, false, output),
					(p, status) -> exited.complete(null))
			.pid();
		return new Started(pid, exited);
	}

	private static void end(List<Started> children) throws Exception {
		for (Started child : children) {
			Reaper.shared().signalGroupUnreaped(child.pid, SIGKILL);
		}
		for (Started child : children) {
			child.exited.get(30, TimeUnit.SECONDS);
		}
	}

	private static long heapAfterGc() {
		System.gc();
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	private static long directBytes() {
		return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
			.stream()
			.filter((pool) -> pool.getName().equals("direct"))
			.mapToLong(BufferPoolMXBean::getMemoryUsed)
			.sum();
	}

	private static long rssKb() throws Exception {
		for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
			if (line.startsWith("VmRSS:")) {
				return Long.parseLong(line.replaceAll("[^0-9]", ""));
			}
		}
		throw new IllegalStateException("no VmRSS in /proc/self/status");
	}

	/**
	 * A sink that takes {@code rate} bytes a second: each write returns once its bytes'
	 * share of time has passed, then the bytes are dropped. Why the slack: a wait that
	 * oversleeps is made up by the next ones, while a pause longer than the slack (the
	 * sink idle) earns no credit.
	 */
	private static final class SlowStream extends OutputStream {

		private static final long SLACK = TimeUnit.MILLISECONDS.toNanos(100);

		private final long rate;

		private long due = System.nanoTime();

		private long written;

		SlowStream(long rate) {
			this.rate = rate;
		}

		@Override
		public synchronized void write(int b) {
			write(new byte[] { (byte) b }, 0, 1);
		}

		@Override
		public synchronized void write(byte[] bytes, int offset, int length) {
			this.due = Math.max(this.due, System.nanoTime() - SLACK) + length * 1_000_000_000L / this.rate;
			Pause.until(this.due);
			this.written += length;
		}

		synchronized long written() {
			return this.written;
		}

	}

}
