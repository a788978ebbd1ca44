package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Samples what a child's tree uses, from {@code /proc}: its processes are the root's descendants, found through each
 * thread's {@code children} list (a shepherd is a subreaper, so every orphan of its command is re-parented to it and
 * stays in the walk). Only reads; a process that ends during the walk is simply not counted.
 * <p>
 * CPU time is the sum of each live process's own time and of what it has reaped (its children's totals), so the time
 * of descendants that have already exited stays counted: their reaper, the shepherd or a process of the tree, holds
 * it. Why clock ticks of 100 per second: {@code USER_HZ} is fixed at 100 by the kernel's ABI on every architecture
 * the launcher is built for.
 */
public final class TreeSampler {

	private static final long NANOS_PER_TICK = 10_000_000L;

	// Why a bound: a fork bomb under a shepherd must not make one sample walk for ever.
	private static final int MAX_PROCESSES = 100_000;

	private TreeSampler() {
	}

	/**
	 * Samples a tree.
	 * @param root the child's process: its shepherd, or its command where it has none
	 * @param shepherd whether {@code root} is a shepherd, whose own memory and process are not the child's (only the
	 * time of what it reaped is)
	 * @param command the command's pid, whose descriptors are counted, or -1 when not known yet
	 * @return the usage, or empty when the root is gone
	 */
	public static Optional<TreeUsage> sample(long root, boolean shepherd, long command) {
		Optional<ResourceParsers.ProcUsage> rootUsage = usage(root);
		if (rootUsage.isEmpty()) {
			return Optional.empty();
		}
		long ticks = shepherd ? rootUsage.get().reapedTicks()
				: rootUsage.get().ownTicks() + rootUsage.get().reapedTicks();
		long resident = shepherd ? 0 : resident(root);
		int processes = shepherd ? 0 : 1;
		Set<Long> seen = new HashSet<>();
		seen.add(root);
		Deque<Long> pending = new ArrayDeque<>(children(root, rootUsage.get().threads()));
		while (!pending.isEmpty() && seen.size() < MAX_PROCESSES) {
			long pid = pending.pop();
			if (!seen.add(pid)) {
				continue;
			}
			Optional<ResourceParsers.ProcUsage> usage = usage(pid);
			if (usage.isEmpty()) {
				continue;
			}
			ticks += usage.get().ownTicks() + usage.get().reapedTicks();
			resident += resident(pid);
			processes++;
			pending.addAll(children(pid, usage.get().threads()));
		}
		return Optional.of(new TreeUsage(resident, ticks * NANOS_PER_TICK, processes,
				(command > 0) ? descriptors(command) : -1));
	}

	private static Optional<ResourceParsers.ProcUsage> usage(long pid) {
		return ThisProcess.read("/proc/" + pid + "/stat").flatMap(ResourceParsers::usage);
	}

	/**
	 * The children of every thread of {@code pid}. Why every thread: a child belongs to the thread that forked it.
	 * Why the main thread's file alone when there is one thread: it saves listing the task directory, for the
	 * shepherd and most commands.
	 */
	private static Set<Long> children(long pid, long threads) {
		Set<Long> children = new HashSet<>();
		if (threads == 1) {
			addChildren("/proc/" + pid + "/task/" + pid + "/children", children);
			return children;
		}
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
			for (Path task : tasks) {
				addChildren(task + "/children", children);
			}
		}
		catch (IOException | RuntimeException ex) {
			// Gone meanwhile, or unreadable: its descendants are not counted.
		}
		return children;
	}

	private static void addChildren(String file, Set<Long> children) {
		ThisProcess.read(file).ifPresent((list) -> {
			for (String child : list.trim().split(" ")) {
				if (!child.isEmpty()) {
					children.add(Long.parseLong(child));
				}
			}
		});
	}

	/**
	 * The open descriptors of {@code pid}; -1 when they cannot be read. Why the directory's size first: since
	 * Linux 6.2 it is the number of open descriptors, one {@code stat} instead of a listing; before, it is 0.
	 */
	private static int descriptors(long pid) {
		Path directory = Path.of("/proc/" + pid + "/fd");
		try {
			long size = Files.readAttributes(directory, BasicFileAttributes.class).size();
			if (size > 0) {
				return (int) Math.min(size, Integer.MAX_VALUE);
			}
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
		int count = 0;
		try (DirectoryStream<Path> fds = Files.newDirectoryStream(directory)) {
			for (Path ignored : fds) {
				count++;
			}
			return count;
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/**
	 * The resident memory of {@code pid}, 0 when gone. Why {@code VmRSS} of {@code status}, not {@code rss} of
	 * {@code stat}: since Linux 6.2 {@code stat} reads the per-CPU counters without summing them, and lags by up to
	 * tens of pages per CPU.
	 */
	private static long resident(long pid) {
		return ThisProcess.read("/proc/" + pid + "/status")
			.map((status) -> ResourceParsers.kilobytes(status, "VmRSS:").orElse(0))
			.orElse(0L);
	}

	/**
	 * What a tree uses at one moment.
	 * @param residentBytes the resident memory of its processes
	 * @param cpuNanos the CPU time (user and system) of its processes and of the descendants they reaped
	 * @param processes how many processes it has (its shepherd not counted)
	 * @param descriptors the command's open descriptors, or -1 when unknown
	 */
	public record TreeUsage(long residentBytes, long cpuNanos, int processes, int descriptors) {
	}

}
