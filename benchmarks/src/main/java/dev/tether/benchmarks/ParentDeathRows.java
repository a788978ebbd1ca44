package dev.tether.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.os.Posix;

/**
 * The parent-death promise, timed: a second JVM ({@link SupervisorProcess}) spawns
 * children and is killed with SIGKILL; every process it left is polled in {@code /proc}
 * until it is gone (a zombie counts as gone). Once with 100 direct children without a
 * shepherd (the baseline), once with 100 children under shepherds, each leaving two
 * descendants (one in a session of its own): 300 processes. Anything still there at the
 * deadline is killed by pid (identity checked by start time) and the row reads infinite.
 */
final class ParentDeathRows {

	static final IdentityProbe PROBE = IdentityProbe.forPlatform();

	private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(10);

	private static final String METRIC = "Processes gone after kill -9 of the supervisor";

	private final Results results;

	private final Path work;

	ParentDeathRows(Results results, Path work) {
		this.results = results;
		this.work = work;
	}

	void run(int n) throws Exception {
		List<Double> direct = goneAfterKill(n, "direct");
		List<Double> tree = goneAfterKill(n, "tree");
		String directName = n + " children, no shepherd (" + n + " processes)";
		String treeName = n + " children under shepherds, 2 descendants each (" + (3 * n) + " processes)";
		double directP99 = p99(direct, n);
		double treeP99 = p99(tree, 3 * n);
		this.results.add(METRIC + ", p50", "ms, lower is better", directName, Results.percentile(direct, 50));
		this.results.add(METRIC + ", p50", "ms, lower is better", treeName, Results.percentile(tree, 50));
		this.results.add(METRIC + ", p99", "ms, target ≤ 100 for the trees", directName, directP99);
		this.results.add(METRIC + ", p99", "ms, target ≤ 100 for the trees", treeName, treeP99);
		this.results.add(METRIC + ", p99 of the trees ÷ p99 of the direct children, per round", "ratio", "Tether",
				treeP99 / directP99);
	}

	private static double p99(List<Double> times, int expected) {
		return (times.size() == expected) ? Results.percentile(times, 99) : Double.POSITIVE_INFINITY;
	}

	/**
	 * The time from the kill until each process the supervisor left is gone, in ms;
	 * missing ones were not.
	 */
	private List<Double> goneAfterKill(int n, String shape) throws Exception {
		Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), SupervisorProcess.class.getName(), Integer.toString(n),
				this.work.toString(), shape)
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		String line = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.US_ASCII))
			.readLine();
		if (line == null) {
			jvm.waitFor();
			throw new IllegalStateException("the supervisor JVM (" + shape + ") printed no pids");
		}
		List<Identity> spawned = new ArrayList<>();
		List<Identity> watched = new ArrayList<>();
		for (String pid : line.substring("PIDS ".length()).split(" ")) {
			Identity child = Identity.of(Long.parseLong(pid));
			spawned.add(child);
			watched.addAll(shape.equals("tree") ? settledTree(child.pid()) : List.of(settledSleep(child)));
		}
		long killed = System.nanoTime();
		jvm.destroyForcibly();
		Map<Identity, Double> goneAfter = new HashMap<>();
		while (goneAfter.size() < watched.size() && System.nanoTime() - killed < DEADLINE_NANOS) {
			for (Identity process : watched) {
				if (!goneAfter.containsKey(process) && !process.alive()) {
					goneAfter.put(process, (System.nanoTime() - killed) / 1e6);
				}
			}
		}
		jvm.waitFor();
		// Why the shepherds too: each must end once its tree is gone; the rows time the
		// tree, not the shepherd.
		awaitGone(spawned, killed + DEADLINE_NANOS);
		endSurvivors(watched);
		endSurvivors(spawned);
		return new ArrayList<>(goneAfter.values());
	}

	/** A direct child once the launcher has exec'd {@code sleep}. */
	private static Identity settledSleep(Identity child) {
		long deadline = System.nanoTime() + DEADLINE_NANOS;
		while (PROBE.stat(child.pid()).map((stat) -> !stat.command().equals("sleep")).orElse(false)
				&& System.nanoTime() - deadline < 0) {
			Thread.onSpinWait();
		}
		return Identity.of(child.pid());
	}

	/**
	 * A shepherd's tree once it is complete: the command ({@code sh}) and its two
	 * {@code sleep}s (the one in its own session is a child of {@code sh}, or of the
	 * shepherd if {@code setsid} had to fork).
	 */
	private static List<Identity> settledTree(long shepherd) throws IOException {
		long deadline = System.nanoTime() + DEADLINE_NANOS;
		while (System.nanoTime() - deadline < 0) {
			List<Long> descendants = new ArrayList<>();
			addDescendants(shepherd, descendants);
			List<Identity> tree = descendants.stream().map(Identity::of).toList();
			long shells = tree.stream().filter((process) -> process.command().equals("sh")).count();
			long sleeps = tree.stream().filter((process) -> process.command().equals("sleep")).count();
			if (tree.size() == 3 && shells == 1 && sleeps == 2) {
				return tree;
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		throw new IllegalStateException("shepherd " + shepherd + " did not start sh with two sleeps in 10 s");
	}

	private static void addDescendants(long pid, List<Long> into) {
		String id = Long.toString(pid);
		String children;
		try {
			children = Files.readString(Path.of("/proc", id, "task", id, "children")).strip();
		}
		catch (IOException ex) {
			return;
		}
		if (children.isEmpty()) {
			return;
		}
		for (String child : children.split(" ")) {
			into.add(Long.parseLong(child));
			addDescendants(Long.parseLong(child), into);
		}
	}

	private static void awaitGone(List<Identity> processes, long deadline) {
		while (processes.stream().anyMatch(Identity::alive) && System.nanoTime() - deadline < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	static void endSurvivors(List<Identity> processes) {
		for (Identity process : processes) {
			if (process.alive()) {
				System.err.println("  process " + process.pid() + " (" + process.command()
						+ ") outlived the killed supervisor; killing it");
				Posix.get().kill(process.pid(), Subject.Started.SIGKILL);
			}
		}
	}

	/**
	 * A process as it was when first seen; {@link #alive()} is false once it is a zombie,
	 * gone, or the pid reused.
	 */
	record Identity(long pid, long startTime, String command) {

		static Identity of(long pid) {
			return PROBE.stat(pid)
				.map((stat) -> new Identity(pid, stat.startTime(), stat.command()))
				.orElse(new Identity(pid, -1, "?"));
		}

		boolean alive() {
			return PROBE.stat(this.pid)
				.map((stat) -> !stat.hasExited() && stat.startTime() == this.startTime)
				.orElse(false);
		}

	}

}
