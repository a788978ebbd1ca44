package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The {@code /proc} files of one process that its tree's sampler reads at each sample,
 * kept open between samples: {@code stat}, {@code statm} (only where its memory is
 * counted), its main thread's {@code children}, and for the child's command its
 * {@code fd} directory, whose size is its number of open descriptors. Why kept: a
 * positional read of an open {@code /proc} file costs a third to a half of an open, a
 * read and a close (a path walk and a permission check each time), and the kernel still
 * answers it with the content as of now.
 * <p>
 * Why they always name this process: a {@code /proc/<pid>} file opened while the process
 * lives stays bound to it; once it is reaped, a read fails with {@code ESRCH} even after
 * the pid was given to another process (checked on Linux 6.18: a kept {@code stat} fails,
 * a kept {@code children} reads empty). {@code stat} is opened first and read after the
 * others are opened, so that a read that succeeds proves all of them were opened on this
 * process.
 * <p>
 * Why a budget: at up to three descriptors per process, 1,000 watched trees hold
 * thousands (each read file also keeps the kernel's buffer of a page, charged to this
 * JVM's memory cgroup); they must never take the descriptors the application needs. Past
 * a quarter of this JVM's soft limit of open files, a process is read by path instead
 * (open, read, close each time): slower, never wrong.
 */
final class KeptProcess implements AutoCloseable {

	private static final AtomicInteger KEPT = new AtomicInteger();

	private static final long BUDGET = budget();

	private final long pid;

	private final String directory;

	private final @Nullable FileChannel stat;

	private final @Nullable FileChannel statm;

	private final @Nullable FileChannel children;

	private @Nullable FileChannel fd;

	private int held;

	private KeptProcess(long pid, @Nullable FileChannel stat, @Nullable FileChannel statm,
			@Nullable FileChannel children) {
		this.pid = pid;
		this.directory = "/proc/" + pid;
		this.stat = stat;
		this.statm = statm;
		this.children = children;
		this.held = ((stat != null) ? 1 : 0) + ((statm != null) ? 1 : 0) + ((children != null) ? 1 : 0);
	}

	/**
	 * Opens what a sample reads of {@code pid}: its {@code stat}, its {@code statm} when
	 * {@code memory}, and its main thread's {@code children}. Where the budget is spent
	 * or a file cannot be opened (the process has ended, the JVM is out of descriptors),
	 * nothing is kept and each read goes by path.
	 */
	static KeptProcess open(long pid, boolean memory) {
		int wanted = memory ? 3 : 2;
		if (KEPT.addAndGet(wanted) > BUDGET) {
			KEPT.addAndGet(-wanted);
			return new KeptProcess(pid, null, null, null);
		}
		String directory = "/proc/" + pid;
		FileChannel stat = null;
		FileChannel statm = null;
		try {
			stat = ProcReader.open(Path.of(directory, "stat"));
			statm = memory ? ProcReader.open(Path.of(directory, "statm")) : null;
			FileChannel children = ProcReader.open(Path.of(directory, "task", Long.toString(pid), "children"));
			return new KeptProcess(pid, stat, statm, children);
		}
		catch (IOException | RuntimeException ex) {
			closeQuietly(stat);
			closeQuietly(statm);
			KEPT.addAndGet(-wanted);
			return new KeptProcess(pid, null, null, null);
		}
	}

	/** The files every {@link KeptProcess} of this JVM holds now. */
	static long kept() {
		return KEPT.get();
	}

	/** The most files every {@link KeptProcess} of this JVM together may hold. */
	static long keptLimit() {
		return BUDGET;
	}

	/** Whether it keeps any file open. */
	boolean keepsFiles() {
		return this.held > 0;
	}

	/**
	 * Reads {@code stat} into {@code reader}; {@code false} once the process has ended.
	 */
	boolean readStat(ProcReader reader) {
		return (this.stat != null) ? reader.read(this.stat) : reader.read(Path.of(this.directory, "stat"));
	}

	/**
	 * Reads {@code statm} into {@code reader}; {@code false} once the process has ended.
	 */
	boolean readStatm(ProcReader reader) {
		return (this.statm != null) ? reader.read(this.statm) : reader.read(Path.of(this.directory, "statm"));
	}

	/**
	 * Reads the main thread's {@code children} into {@code reader}; an ended process
	 * reads empty or fails.
	 */
	boolean readChildren(ProcReader reader) {
		return (this.children != null) ? reader.read(this.children)
				: reader.read(Path.of(this.directory, "task", Long.toString(this.pid), "children"));
	}

	/**
	 * The size of its {@code fd} directory, which since Linux 6.2 is its number of open
	 * descriptors (0 before); -1 when it cannot be read. Why through a kept descriptor:
	 * an {@code fstat} costs a fraction of a path's {@code stat}, and cannot be another
	 * process's. Kept only where its other files are.
	 */
	long descriptorsDirectorySize() {
		if (this.fd == null && this.stat != null) {
			this.fd = openCounted(Path.of(this.directory, "fd"));
		}
		try {
			return (this.fd != null) ? this.fd.size()
					: Files.readAttributes(Path.of(this.directory, "fd"), BasicFileAttributes.class).size();
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/**
	 * Opens one more file within the budget; {@code null} when the budget is spent or it
	 * cannot be opened.
	 */
	private @Nullable FileChannel openCounted(Path path) {
		if (KEPT.incrementAndGet() > BUDGET) {
			KEPT.decrementAndGet();
			return null;
		}
		try {
			FileChannel channel = ProcReader.open(path);
			this.held++;
			return channel;
		}
		catch (IOException | RuntimeException ex) {
			KEPT.decrementAndGet();
			return null;
		}
	}

	/** Closes what it keeps and gives its descriptors back to the budget. */
	@Override
	public void close() {
		closeQuietly(this.fd);
		closeQuietly(this.stat);
		closeQuietly(this.statm);
		closeQuietly(this.children);
		KEPT.addAndGet(-this.held);
	}

	private static void closeQuietly(@Nullable FileChannel channel) {
		if (channel == null) {
			return;
		}
		try {
			channel.close();
		}
		catch (IOException ex) {
			// Why ignored: a /proc file has nothing to flush; its descriptor is released
			// either way.
		}
	}

	private static long budget() {
		long soft = ThisProcess.softLimits().getOrDefault("Max open files", -1L);
		// Why 256 when unknown: /proc unreadable means nothing is sampled anyway; a small
		// bound is harmless.
		return (soft > 0) ? soft / 4 : 256;
	}

}
