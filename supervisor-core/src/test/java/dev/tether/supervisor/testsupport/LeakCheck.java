package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.ProcStat;

/**
 * The one leak check of every suite (unit, integration, end to end, and {@code .ci/run}
 * through {@link #main}).
 * <p>
 * Its scope is this run only: processes carrying an installation id that starts with
 * {@link TestRun#installationPrefix()}, and descendants of this JVM (which also catches
 * children that dropped the markers, e.g. by {@code exec env -i}). A process outside that
 * scope is never reported nor touched, so another build or a real Tether application on
 * the same host is safe. It also reports {@code supervisor-*} threads left running (the
 * JVM-wide {@code supervisor-reaper} and the output pump, {@code supervisor-output} and
 * its workers and deleter, serve the whole JVM by design and are not among them).
 */
public final class LeakCheck {

	/**
	 * The threads that legitimately outlive every supervisor: they serve the whole JVM.
	 */
	private static final Pattern SHARED_THREADS = Pattern
		.compile("supervisor-reaper|supervisor-output(-\\d+|-deleter)?");

	private final String installationPrefix;

	private final long self;

	private LeakCheck(String installationPrefix, long self) {
		this.installationPrefix = installationPrefix;
		this.self = self;
	}

	/** The check of this JVM's run: its installations and its descendants. */
	public static LeakCheck ofThisRun() {
		return new LeakCheck(TestRun.installationPrefix(), ProcessHandle.current().pid());
	}

	/**
	 * What is in scope and alive now; a later {@link #leakedSince} reports what appeared
	 * after it.
	 */
	public Baseline baseline() {
		List<ScopedProcess> processes = scan();
		return new Baseline(processes.stream().map(ScopedProcess::identity).collect(Collectors.toSet()),
				processes.stream()
					.map(ScopedProcess::installation)
					.flatMap(Optional::stream)
					.collect(Collectors.toSet()),
				supervisorThreads().stream().map(Thread::getId).collect(Collectors.toSet()));
	}

	/**
	 * Processes in scope that are alive now and were not at the baseline, leaving out
	 * those of an installation that already had live processes then (a longer-lived
	 * owner, such as a cached application context, holds those).
	 */
	public List<ScopedProcess> leakedSince(Baseline baseline) {
		return scan().stream()
			.filter((process) -> !baseline.processes().contains(process.identity()))
			.filter((
					process) -> process.installation().map((id) -> !baseline.installations().contains(id)).orElse(true))
			.toList();
	}

	/**
	 * {@code supervisor-*} threads (other than the shared ones) alive now that were not
	 * at the baseline.
	 */
	public List<Thread> threadsLeakedSince(Baseline baseline) {
		return supervisorThreads().stream().filter((thread) -> !baseline.threads().contains(thread.getId())).toList();
	}

	/**
	 * Kills a leaked process with SIGKILL if it is still the very process that was found
	 * (same start time).
	 */
	public static void kill(ScopedProcess leaked) {
		if (LiveProcesses.isAlive(leaked.pid(), leaked.startTime())) {
			ProcessHandle.of(leaked.pid()).ifPresent(ProcessHandle::destroyForcibly);
		}
	}

	public static String describe(List<ScopedProcess> leaked) {
		return leaked.stream().map(ScopedProcess::toString).collect(Collectors.joining("; "));
	}

	private static List<Thread> supervisorThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("supervisor-")
					&& !SHARED_THREADS.matcher(thread.getName()).matches())
			.toList();
	}

	private List<ScopedProcess> scan() {
		Map<Long, ProcStat> stats = new HashMap<>();
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
			for (Path entry : entries) {
				long pid = Long.parseLong(entry.getFileName().toString());
				LiveProcesses.stat(pid).filter((stat) -> !stat.hasExited()).ifPresent((stat) -> stats.put(pid, stat));
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot list /proc", ex);
		}
		Map<Long, Optional<String>> installations = new HashMap<>();
		List<ScopedProcess> inScope = new ArrayList<>();
		for (ProcStat stat : stats.values()) {
			if (stat.pid() == this.self) {
				continue;
			}
			Optional<String> own = installationOf(stat.pid());
			installations.put(stat.pid(), own);
			boolean marked = own.filter((id) -> id.startsWith(this.installationPrefix)).isPresent();
			boolean descendant = isDescendant(stat, stats);
			if (marked || descendant) {
				inScope.add(
						new ScopedProcess(stat.pid(), stat.startTime(), nearestInstallation(stat, stats, installations),
								marked ? "carries " + own.get() : "descendant of the test JVM"));
			}
		}
		return inScope;
	}

	private boolean isDescendant(ProcStat stat, Map<Long, ProcStat> stats) {
		Set<Long> seen = new HashSet<>();
		ProcStat current = stat;
		while (current != null && seen.add(current.pid())) {
			if (current.ppid() == this.self) {
				return true;
			}
			current = stats.get(current.ppid());
		}
		return false;
	}

	/** The process's own installation, else that of its nearest marked ancestor. */
	private static Optional<String> nearestInstallation(ProcStat stat, Map<Long, ProcStat> stats,
			Map<Long, Optional<String>> known) {
		Set<Long> seen = new HashSet<>();
		ProcStat current = stat;
		while (current != null && seen.add(current.pid())) {
			Optional<String> installation = known.computeIfAbsent(current.pid(), LeakCheck::installationOf);
			if (installation.isPresent()) {
				return installation;
			}
			current = stats.get(current.ppid());
		}
		return Optional.empty();
	}

	private static Optional<String> installationOf(long pid) {
		String key = ChildMarkers.INSTALLATION_ENV + "=";
		return LiveProcesses.environ(pid)
			.stream()
			.filter((entry) -> entry.startsWith(key))
			.map((entry) -> entry.substring(key.length()))
			.findFirst();
	}

	/**
	 * For {@code .ci/run} after the build: {@code LeakCheck <run-id>} lists, then kills,
	 * the processes still carrying an installation id of that run, and exits 1 if there
	 * were any. Waits up to 10 s for them to go first (a child's parent-death signal is
	 * asynchronous).
	 */
	public static void main(String[] args) throws InterruptedException {
		if (args.length != 1 || !args[0].matches("[a-z0-9]{1,16}")) {
			System.err.println("usage: LeakCheck <run-id of 1 to 16 [a-z0-9]>");
			System.exit(2);
		}
		// Why no descendants here: every JVM of the build has ended; only the markers of
		// the run remain to look for.
		LeakCheck check = new LeakCheck("test-" + args[0] + "-", ProcessHandle.current().pid());
		Baseline nothing = new Baseline(Set.of(), Set.of(), Set.of());
		long deadline = System.nanoTime() + 10_000_000_000L;
		List<ScopedProcess> leaked = check.leakedSince(nothing);
		while (!leaked.isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(100);
			leaked = check.leakedSince(nothing);
		}
		if (leaked.isEmpty()) {
			return;
		}
		System.err.println("FAILED: " + leaked.size() + " process(es) of test run " + args[0] + " outlived the tests: "
				+ describe(leaked));
		leaked.forEach(LeakCheck::kill);
		System.exit(1);
	}

	/** What was alive in scope at one moment. */
	public record Baseline(Set<String> processes, Set<String> installations, Set<Long> threads) {
	}

	/**
	 * A process in scope; {@code installation} is its own or its nearest marked
	 * ancestor's.
	 */
	public record ScopedProcess(long pid, long startTime, Optional<String> installation, String why) {

		String identity() {
			return this.pid + "@" + this.startTime;
		}

		@Override
		public String toString() {
			return "pid " + this.pid + " (" + this.why + "): " + LiveProcesses.commandLine(this.pid);
		}

	}

}
