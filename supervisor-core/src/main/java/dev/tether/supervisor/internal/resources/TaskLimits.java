package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Why the kernel refused to make a process ({@code fork}, {@code clone} and
 * {@code posix_spawn} fail with {@code EAGAIN}): each limit that counts processes and
 * threads, with its count now, read from {@code /proc} and the cgroup file system. Four
 * limits say {@code EAGAIN} alike: the real uid's {@code RLIMIT_NPROC} (root is exempt),
 * the cgroup's {@code pids.max}, the pid namespace's {@code pid_max}, and the kernel's
 * {@code threads-max}; the one nearest to full is named.
 * <p>
 * Why read at a refusal only: counting a user's tasks reads the {@code status} of every
 * process of the machine, a few milliseconds for ten thousand; a refusal is rare and
 * refused once, not in a loop.
 */
public final class TaskLimits {

	private static final Path PROC = Path.of("/proc");

	private static final Path CGROUPS = Path.of("/sys/fs/cgroup");

	private TaskLimits() {
	}

	/**
	 * Why a process could not be made now: the limit nearest to full, with its numbers,
	 * and the way to raise it.
	 */
	public static String whyRefused() {
		long uid = realUid(read(PROC.resolve("self/status")));
		long[] tasks = countTasks(uid);
		List<Candidate> candidates = new ArrayList<>();
		long nproc = ThisProcess.softLimits().getOrDefault("Max processes", ResourceParsers.UNLIMITED);
		if (uid != 0 && uid >= 0 && nproc > 0 && nproc != ResourceParsers.UNLIMITED) {
			candidates.add(new Candidate(tasks[0], nproc, String.format(Locale.ROOT,
					"the process limit of uid %d is reached: it runs %,d processes and threads, and RLIMIT_NPROC "
							+ "allows it %,d; raise the limit (ulimit -u, LimitNPROC=) or end processes of that user",
					uid, tasks[0], nproc)));
		}
		Candidate cgroup = cgroup();
		if (cgroup != null) {
			candidates.add(cgroup);
		}
		long pidMax = KernelFiles.number(PROC.resolve("sys/kernel/pid_max")).orElse(-1);
		if (pidMax > 0) {
			// Why pid_max - 1: pids run from 1 to pid_max - 1.
			candidates.add(new Candidate(tasks[1], pidMax - 1,
					String.format(Locale.ROOT,
							"no pid is free: pid_max of this pid namespace is %,d and %,d pids are in use; raise "
									+ "kernel.pid_max or end processes",
							pidMax, tasks[1])));
		}
		long threadsMax = KernelFiles.number(PROC.resolve("sys/kernel/threads-max")).orElse(-1);
		if (threadsMax > 0) {
			candidates.add(new Candidate(tasks[1], threadsMax, String.format(Locale.ROOT,
					"the kernel's threads-max of %,d is reached (%,d tasks seen); raise kernel.threads-max or end "
							+ "processes",
					threadsMax, tasks[1])));
		}
		return candidates.stream()
			.max(Comparator.comparingDouble(Candidate::fullness))
			.map(Candidate::reason)
			.orElse("the kernel refused to make a process (EAGAIN), and no limit that counts processes could be read");
	}

	/**
	 * The tasks (processes and their threads) of {@code uid}, and of everyone visible in
	 * this pid namespace.
	 */
	private static long[] countTasks(long uid) {
		long[] tasks = new long[2];
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC, "[0-9]*")) {
			for (Path process : processes) {
				String status = read(process.resolve("status"));
				long threads = field(status, "Threads:");
				if (threads <= 0) {
					continue;
				}
				tasks[1] += threads;
				if (realUid(status) == uid) {
					tasks[0] += threads;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Why kept: a partial count still says which limit is near; the numbers are
			// given as seen.
		}
		return tasks;
	}

	/**
	 * This process's cgroup or the nearest of its ancestors with a {@code pids.max}, with
	 * {@code pids.current}; {@code null} without one (cgroup v1, no pids controller).
	 */
	private static @Nullable Candidate cgroup() {
		String own = read(PROC.resolve("self/cgroup"));
		int at = own.indexOf("0::/");
		if (at < 0) {
			return null;
		}
		int end = own.indexOf('\n', at);
		String relative = own.substring(at + 4, (end < 0) ? own.length() : end).trim();
		Candidate nearest = null;
		for (Path group = CGROUPS.resolve(relative); group != null
				&& group.startsWith(CGROUPS); group = group.getParent()) {
			// Why -1: "max" (no cgroup limit), or a file that could not be read.
			long max = KernelFiles.number(group.resolve("pids.max")).orElse(-1);
			long current = KernelFiles.number(group.resolve("pids.current")).orElse(-1);
			if (max > 0 && current >= 0) {
				Candidate candidate = new Candidate(current, max,
						String.format(Locale.ROOT,
								"the cgroup %s allows %,d tasks (pids.max) and holds %,d; raise its pids.max "
										+ "(TasksMax=) or end processes",
								group, max, current));
				if (nearest == null || candidate.fullness() > nearest.fullness()) {
					nearest = candidate;
				}
			}
		}
		return nearest;
	}

	private static long realUid(String status) {
		return field(status, "Uid:");
	}

	/** The first number after {@code name} at the start of a line; -1 when absent. */
	private static long field(String status, String name) {
		for (String line : status.split("\n")) {
			if (line.startsWith(name)) {
				return number(line.substring(name.length()).trim().split("\\s+")[0]);
			}
		}
		return -1;
	}

	private static long number(String text) {
		try {
			return Long.parseLong(text.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private static String read(Path file) {
		return KernelFiles.read(file).orElse("");
	}

	/** A limit, its count now, and what to say when it is the one reached. */
	private record Candidate(long count, long limit, String reason) {

		double fullness() {
			return (double) this.count / this.limit;
		}

	}

}
