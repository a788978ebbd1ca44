package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Samples what one child's tree uses, from {@code /proc}: its processes are the root's
 * descendants, found through each thread's {@code children} list (a shepherd is a
 * subreaper, so every orphan of its command is re-parented to it and stays in the walk).
 * Only reads; a process that ends during the walk is simply not counted.
 * <p>
 * Why one sampler per tree, kept between samples: it keeps each process's {@code /proc}
 * files open ({@link KeptProcess}), so that a sample costs positional reads, not opens.
 * It closes a process's files at the first sample that no longer finds it in the tree
 * (ended, or moved out), and all of them on {@link #close()}; its owner closes it when
 * the child's process changes, when the child goes, and when nobody sampled it for a
 * while. Not thread-safe: its owner serialises its use.
 * <p>
 * CPU time is the sum of each live process's own time and of what it has reaped (its
 * children's totals), so the time of descendants that have already exited stays counted:
 * their reaper, the shepherd or a process of the tree, holds it. Why clock ticks of 100
 * per second: {@code USER_HZ} is fixed at 100 by the kernel's ABI on every architecture
 * the launcher is built for.
 */
public final class TreeSampler implements AutoCloseable {

	private static final long NANOS_PER_TICK = 10_000_000L;

	// Why a bound: a fork bomb under a shepherd must not make one sample walk for ever.
	private static final int MAX_PROCESSES = 100_000;

	private static final long PAGE_SIZE = ThisProcess.pageSize();

	/**
	 * The files kept for a child whose command has no descendants: its shepherd's
	 * {@code stat} and {@code children}, its command's {@code stat}, {@code statm},
	 * {@code children} and {@code fd}; without a shepherd, two fewer.
	 */
	public static final int KEPT_PER_CHILD = 6;

	private final ProcReader reader = new ProcReader();

	private final Map<Long, KeptProcess> kept = new HashMap<>();

	private final Set<Long> seen = new HashSet<>();

	private final ArrayDeque<Long> pending = new ArrayDeque<>();

	/**
	 * Samples the tree.
	 * @param root the child's process: its shepherd, or its command where it has none
	 * @param shepherd whether {@code root} is a shepherd, whose own memory and process
	 * are not the child's (only the time of what it reaped is)
	 * @param command the command's pid, whose descriptors are counted, or -1 when not
	 * known yet
	 * @return the usage, or empty when the root is gone
	 */
	public Optional<TreeUsage> sample(long root, boolean shepherd, long command) {
		this.seen.clear();
		this.pending.clear();
		try {
			ProcBytes.ProcUsage rootUsage = usage(root, !shepherd);
			if (rootUsage == null) {
				return Optional.empty();
			}
			long ticks = shepherd ? rootUsage.reapedTicks() : rootUsage.ownTicks() + rootUsage.reapedTicks();
			long resident = shepherd ? 0 : resident(root);
			int processes = shepherd ? 0 : 1;
			int zombies = 0;
			children(root, rootUsage.threads());
			while (!this.pending.isEmpty() && this.seen.size() < MAX_PROCESSES) {
				long pid = this.pending.pop();
				if (this.seen.contains(pid)) {
					continue;
				}
				ProcBytes.ProcUsage usage = usage(pid, true);
				if (usage == null) {
					continue;
				}
				ticks += usage.ownTicks() + usage.reapedTicks();
				// Why apart: a zombie holds a pid and nothing else; a tree of 50 of them
				// is one process leaking pids, not 51 processes.
				if (usage.zombie()) {
					zombies++;
				}
				else {
					resident += resident(pid);
					processes++;
				}
				children(pid, usage.threads());
			}
			return Optional.of(new TreeUsage(resident, ticks * NANOS_PER_TICK, processes, zombies,
					(command > 0) ? descriptors(command) : -1));
		}
		finally {
			releaseUnseen();
		}
	}

	/**
	 * The descriptors every sampler of this JVM keeps open now, within a quarter of the
	 * soft limit of open files.
	 */
	public static long keptDescriptors() {
		return KeptProcess.kept();
	}

	/**
	 * The most descriptors every sampler of this JVM together keeps open: a quarter of
	 * the soft limit of open files. Past it, processes are read by path.
	 */
	public static long keptDescriptorsLimit() {
		return KeptProcess.keptLimit();
	}

	/** Whether it keeps any file open, which only {@link #close()} releases. */
	public boolean keepsFiles() {
		for (KeptProcess process : this.kept.values()) {
			if (process.keepsFiles()) {
				return true;
			}
		}
		return false;
	}

	/** Closes every file it keeps; a later sample opens them again. */
	@Override
	public void close() {
		this.kept.values().forEach(KeptProcess::close);
		this.kept.clear();
	}

	/**
	 * The usage fields of {@code pid}, which then counts as seen; {@code null} (its files
	 * closed) once it has ended.
	 * @param memory whether its memory is counted, so that its {@code statm} is kept too
	 */
	private ProcBytes.@Nullable ProcUsage usage(long pid, boolean memory) {
		KeptProcess process = this.kept.get(pid);
		if (process == null) {
			process = KeptProcess.open(pid, memory);
			this.kept.put(pid, process);
		}
		ProcBytes.ProcUsage usage = process.readStat(this.reader)
				? ProcBytes.usage(this.reader.bytes(), this.reader.length()) : null;
		if (usage == null) {
			this.kept.remove(pid).close();
			return null;
		}
		this.seen.add(pid);
		return usage;
	}

	/**
	 * The resident memory of {@code pid}, 0 when gone: {@code statm}'s resident pages,
	 * which are {@code VmRSS} of {@code status} (the kernel fills both from the same
	 * three counters, anonymous, file and shared memory, read the same way), at a
	 * fraction of its cost: seven numbers against some fifty lines. Why not {@code rss}
	 * of {@code stat}: since Linux 6.2 it reads the per-CPU counters without summing
	 * them, and lags by up to tens of pages per CPU (on Linux 6.18, 128 KB behind the
	 * other two, which agree).
	 */
	private long resident(long pid) {
		KeptProcess process = this.kept.get(pid);
		if (process == null || !process.readStatm(this.reader)) {
			return 0;
		}
		return Math.max(0, ProcBytes.residentPages(this.reader.bytes(), this.reader.length())) * PAGE_SIZE;
	}

	/**
	 * Adds the children of every thread of {@code pid} to the walk. Why every thread: a
	 * child belongs to the thread that forked it. Why the main thread's file alone when
	 * there is one thread: it saves listing the task directory, for the shepherd and most
	 * commands; other threads' files are read by path, as threads come and go.
	 */
	private void children(long pid, long threads) {
		KeptProcess process = this.kept.get(pid);
		if (process != null && process.readChildren(this.reader)) {
			ProcBytes.pids(this.reader.bytes(), this.reader.length(), this.pending::add);
		}
		if (threads == 1) {
			return;
		}
		String main = Long.toString(pid);
		try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", main, "task"))) {
			for (Path task : tasks) {
				if (!task.getFileName().toString().equals(main) && this.reader.read(task.resolve("children"))) {
					ProcBytes.pids(this.reader.bytes(), this.reader.length(), this.pending::add);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Gone meanwhile, or unreadable: the descendants of its other threads are not
			// counted.
		}
	}

	/**
	 * Closes the files of every process this sample did not find in the tree: it ended,
	 * or left the tree.
	 */
	private void releaseUnseen() {
		Iterator<Map.Entry<Long, KeptProcess>> entries = this.kept.entrySet().iterator();
		while (entries.hasNext()) {
			Map.Entry<Long, KeptProcess> entry = entries.next();
			if (!this.seen.contains(entry.getKey())) {
				entry.getValue().close();
				entries.remove();
			}
		}
	}

	/**
	 * The open descriptors of {@code pid}, a process of the tree; -1 when they cannot be
	 * read. Why the directory's size first: since Linux 6.2 it is the number of open
	 * descriptors, one {@code fstat} instead of a listing; before, it is 0.
	 */
	private int descriptors(long pid) {
		KeptProcess process = this.kept.get(pid);
		long size = (process != null) ? process.descriptorsDirectorySize() : -1;
		if (size > 0) {
			return (int) Math.min(size, Integer.MAX_VALUE);
		}
		if (size < 0 && process != null) {
			return -1;
		}
		int count = 0;
		try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/" + pid + "/fd"))) {
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
	 * What a tree uses at one moment.
	 *
	 * @param residentBytes the resident memory of its processes
	 * @param cpuNanos the CPU time (user and system) of its processes and of the
	 * descendants they reaped
	 * @param processes how many live processes it has (its shepherd and zombies not
	 * counted)
	 * @param zombies how many of its descendants have ended and wait to be reaped
	 * @param descriptors the command's open descriptors, or -1 when unknown
	 */
	public record TreeUsage(long residentBytes, long cpuNanos, int processes, int zombies, int descriptors) {
	}

}
