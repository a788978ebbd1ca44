package dev.tether.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildSpecBuilder;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.ports.PortOwnership;

/**
 * What liveness probes cost the JVM: {@code n} HTTP servers (a small C program each),
 * probed every second with {@code liveness.http-get}, against the same {@code n} servers
 * supervised without probes in the same round. The difference in JVM CPU over the same
 * window, divided by the probes that came back, is the cost of one probe; the difference
 * in live threads is what probing holds.
 */
final class ProbeRows {

	private static final Duration WINDOW = Duration.ofSeconds(10);

	private static final Duration AWAIT = Duration.ofSeconds(120);

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private final Results results;

	private final Path work;

	private final Path httpOk;

	ProbeRows(Results results, Path work, Path httpOk) {
		this.results = results;
		this.work = work;
		this.httpOk = httpOk;
	}

	void cost(int n) throws Exception {
		Measure without = measure(n, false);
		Measure with = measure(n, true);
		String metric = "Liveness probes: " + n + " HTTP servers probed every 1 s, over " + WINDOW.toSeconds() + " s";
		double cpuPerProbe = (with.cpuSeconds - without.cpuSeconds) / with.probes;
		this.results.add(metric + ", probes answered", "probes, ≈ " + n * WINDOW.toSeconds(), "Tether", with.probes);
		this.results.add(metric + ", JVM CPU per probe (with − without probes)", "µs, lower is better", "Tether",
				cpuPerProbe * 1e6);
		this.results.add(metric + ", JVM CPU of all probing", "% of one core, lower is better", "Tether",
				100 * (with.cpuSeconds - without.cpuSeconds) / WINDOW.toSeconds());
		this.results.add(metric + ", JVM CPU of supervision without probes", "% of one core, lower is better", "Tether",
				100 * without.cpuSeconds / WINDOW.toSeconds());
		this.results.add(metric + ", JVM threads used by probing (with − without)", "threads, lower is better",
				"Tether", with.threads - without.threads);
	}

	/**
	 * What checking that each port is held by its child's tree costs, at {@code n}
	 * servers, each with {@code liveness.tcp} every second, ticked every 200 ms as the
	 * starter does. The check alone, on this thread, for every child: cold (one reading
	 * of {@code /proc/net/tcp*} and a walk of each tree's descriptors, as at each child's
	 * first readiness probe) and warm (each socket found before, as at every later
	 * probe). Then the tick, over {@link #WINDOW}: its CPU time on the ticking thread,
	 * which a machine shared with other work moves far less than its wall time.
	 */
	void portTicks(int n) throws Exception {
		try (Supervisor supervisor = supervisor(n,
				(spec) -> spec.livenessTcp(true).livenessPeriod(Duration.ofSeconds(1)))) {
			try (Ticker ticker = Ticker.start(supervisor)) {
				supervisor.startAutostart();
				awaitUntil(supervisor, (child) -> child.liveness() != null && child.liveness().passed());
			}
			String checks = "Port held by its child's tree, checked for " + n + " children";
			PortOwnership ownership = new PortOwnership(IdentityProbe.forPlatform());
			this.results.add(checks + ", cold (tables read, trees walked), per child", "µs of CPU, lower is better",
					"Tether", checkAll(supervisor, ownership) / n / 1e3);
			this.results.add(checks + ", warm (sockets found before), per child", "µs of CPU, lower is better",
					"Tether", checkAll(supervisor, ownership) / n / 1e3);
			List<Long> ticks = new ArrayList<>();
			long probesBefore = threadCpu("supervisor-probes");
			long end = System.nanoTime() + WINDOW.toNanos();
			while (System.nanoTime() < end) {
				long before = THREADS.getCurrentThreadCpuTime();
				supervisor.tick();
				ticks.add(THREADS.getCurrentThreadCpuTime() - before);
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
			}
			String metric = "Tick with " + n + " children, liveness.tcp every 1 s, each port checked, CPU time";
			this.results.add(metric + ", p50", "ms, lower is better", "Tether", percentile(ticks, 50));
			this.results.add(metric + ", p99", "ms, lower is better", "Tether", percentile(ticks, 99));
			this.results.add(metric + ", the probe thread's (connects, closes, port checks) per second",
					"ms, lower is better", "Tether",
					(threadCpu("supervisor-probes") - probesBefore) / 1e6 / WINDOW.toSeconds());
		}
	}

	/** The CPU time of the live thread of this name, in ns. */
	private static long threadCpu(String name) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().equals(name))
			.mapToLong((thread) -> THREADS.getThreadCpuTime(thread.getId()))
			.sum();
	}

	/** Checks every child's port once. @return the CPU time it took this thread, in ns */
	private static long checkAll(Supervisor supervisor, PortOwnership ownership) {
		PortOwnership.Checks checks = ownership.checks();
		List<ChildSnapshot> children = supervisor.snapshots();
		long before = THREADS.getCurrentThreadCpuTime();
		for (ChildSnapshot child : children) {
			long root = (child.shepherdPid() != null) ? child.shepherdPid() : child.pid();
			if (checks.notHeld(child.port(), child.name(), root).isPresent()) {
				throw new IllegalStateException("port of " + child.name() + " not held by its tree");
			}
		}
		return THREADS.getCurrentThreadCpuTime() - before;
	}

	static double percentile(List<Long> nanos, int percent) {
		List<Long> sorted = nanos.stream().sorted().toList();
		return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * percent / 100.0) - 1)) / 1e6;
	}

	private Measure measure(int n, boolean probed) throws Exception {
		try (Supervisor supervisor = supervisor(n,
				(spec) -> probed ? spec.livenessHttpGet("/health").livenessPeriod(Duration.ofSeconds(1)) : spec);
				Ticker ticker = Ticker.start(supervisor)) {
			supervisor.startAutostart();
			awaitUntil(supervisor, (child) -> child.state() == ChildState.RUNNING
					&& (!probed || (child.liveness() != null && child.liveness().passed())));
			Map<String, Set<Instant>> seen = new HashMap<>();
			double cpuBefore = CpuTime.jvmNow();
			long end = System.nanoTime() + WINDOW.toNanos();
			int threads = 0;
			while (System.nanoTime() < end) {
				for (ChildSnapshot child : supervisor.snapshots()) {
					if (child.liveness() != null) {
						seen.computeIfAbsent(child.name(), (name) -> new HashSet<>()).add(child.liveness().at());
					}
				}
				threads = Math.max(threads, Thread.activeCount());
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
			}
			double cpu = CpuTime.jvmNow() - cpuBefore;
			// Why minus one per child: the result seen first was there before the window
			// began.
			long probes = seen.values().stream().mapToLong((results) -> results.size() - 1).sum();
			return new Measure(cpu, probes, threads);
		}
	}

	private Supervisor supervisor(int n, UnaryOperator<ChildSpecBuilder> probes) throws IOException {
		SupervisorBuilder builder = BenchSupervisors.builder(this.work, "probes");
		for (int port : freePorts(n)) {
			builder.child(
					probes
						.apply(ChildSpec.builder("server-" + port, List.of(this.httpOk.toString(), "" + port))
							.port(port)
							.logFileEnabled(false))
						.build());
		}
		return builder.build();
	}

	/** Ports nothing listens on now; held open together so that no two are the same. */
	static List<Integer> freePorts(int n) throws IOException {
		List<ServerSocket> held = new ArrayList<>(n);
		try {
			for (int i = 0; i < n; i++) {
				held.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
			}
			return held.stream().map(ServerSocket::getLocalPort).toList();
		}
		finally {
			for (ServerSocket socket : held) {
				socket.close();
			}
		}
	}

	private static void awaitUntil(Supervisor supervisor, java.util.function.Predicate<ChildSnapshot> condition) {
		long deadline = System.nanoTime() + AWAIT.toNanos();
		while (!supervisor.snapshots().stream().allMatch(condition)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("children not ready within " + AWAIT);
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
		}
	}

	private record Measure(double cpuSeconds, long probes, int threads) {
	}

}
