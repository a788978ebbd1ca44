package dev.tether.supervisor.internal.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;

import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.Signal;
import org.jspecify.annotations.Nullable;

/**
 * The native calls Tether makes, with their errors turned into values, through the native
 * backend in force ({@link #backend()}): the Foreign Function and Memory API on JDK 22
 * and later, jnr on JDK 17 to 21. Linux only; check {@link #isAvailable()}. The numbers
 * come from jnr-constants, plain Java tables that load no native code.
 */
public final class Posix {

	/** {@code SIGKILL}, the same number on every Linux architecture. */
	public static final int SIGKILL = 9;

	/** {@code SIGTERM}. */
	public static final int SIGTERM = 15;

	/** {@code EAGAIN}: nothing to read now. */
	public static final int EAGAIN = Errno.EAGAIN.intValue();

	/** {@code SIGCONT} on Linux (x86, ARM, RISC-V). */
	public static final int SIGCONT = 18;

	private static final int PIDFD_SIGNAL_PROCESS_GROUP = 1 << 2;

	private static final int EINTR = Errno.EINTR.intValue();

	/** {@code ENOENT}: no such file. */
	public static final int ENOENT = Errno.ENOENT.intValue();

	/** {@code EEXIST}: the file exists (an exclusive create). */
	public static final int EEXIST = Errno.EEXIST.intValue();

	/** {@code O_RDONLY}. */
	public static final int O_RDONLY = 0;

	/** {@code O_WRONLY}. */
	public static final int O_WRONLY = 01;

	/** {@code O_CREAT}. */
	public static final int O_CREAT = OpenFlags.O_CREAT.intValue();

	/** {@code O_EXCL}. */
	public static final int O_EXCL = OpenFlags.O_EXCL.intValue();

	/** {@code O_APPEND}. */
	public static final int O_APPEND = OpenFlags.O_APPEND.intValue();

	/** {@code O_NOFOLLOW}: the number differs between architectures. */
	public static final int O_NOFOLLOW = OpenFlags.O_NOFOLLOW.intValue();

	/** {@code O_NONBLOCK}: the number differs between architectures. */
	public static final int O_NONBLOCK = OpenFlags.O_NONBLOCK.intValue();

	/** {@code O_CLOEXEC}. */
	public static final int O_CLOEXEC = 02000000;

	// Why: RLIMIT_NOFILE is 7 on every Linux architecture Tether ships for.
	private static final int RLIMIT_NOFILE = 7;

	private static final int F_SETFL = 4;

	private static final int F_SETPIPE_SZ = 1031;

	private static final int F_GETPIPE_SZ = 1032;

	private static final int S_IFMT = 0170000;

	private static final int S_IFREG = 0100000;

	private static final int S_IFIFO = 0010000;

	private static final Posix INSTANCE = new Posix(NativeBackends.load());

	private final @Nullable NativeCalls calls;

	private final boolean pidfdAvailable;

	Posix(@Nullable NativeCalls calls) {
		this.calls = calls;
		this.pidfdAvailable = (calls != null) && probePidfd();
	}

	/** The shared instance. */
	public static Posix get() {
		return INSTANCE;
	}

	/** Whether this is Linux. */
	public static boolean isLinux() {
		return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
	}

	/** Whether glibc was bound (Linux with a loadable libc). */
	public boolean isAvailable() {
		return this.calls != null;
	}

	/**
	 * The native backend in force: {@code ffm} (the Foreign Function and Memory API, JDK
	 * 22+), {@code jnr} (JDK 17 to 21), or {@code none} (not Linux, or no libc could be
	 * bound: children are spawned by {@link ProcessBuilder}).
	 */
	public String backend() {
		return (this.calls != null) ? this.calls.name() : "none";
	}

	/** Whether the kernel has {@code pidfd_open} and {@code pidfd_send_signal}. */
	public boolean isPidfdAvailable() {
		return this.pidfdAvailable;
	}

	NativeCalls calls() {
		return this.calls;
	}

	/** The message of an errno value. */
	public String describe(int errno) {
		return this.calls.strerror(errno) + " (" + Errno.valueOf(errno).name() + ")";
	}

	/**
	 * Collects the exit of one specific child if it has exited, without blocking. Never
	 * {@code waitpid(-1)}: that would steal the exits of every other {@link Process} in
	 * the JVM.
	 */
	public WaitResult waitpid(long pid) {
		int[] status = new int[1];
		while (true) {
			long result = this.calls.waitpid(pid, status);
			if (result == pid) {
				return new WaitResult(WaitResult.Kind.EXITED, status[0]);
			}
			if (result == 0) {
				return WaitResult.RUNNING;
			}
			if (result != -EINTR) {
				return WaitResult.NOT_A_CHILD;
			}
		}
	}

	/**
	 * {@code kill(pid, signal)}; a negative pid names a process group. Returns 0 or the
	 * errno.
	 */
	public int kill(long pid, int signal) {
		return this.calls.kill(Math.toIntExact(pid), signal);
	}

	/**
	 * Opens a pidfd for the pid.
	 * @return the descriptor, or the errno negated ({@code -ESRCH}: no such process;
	 * {@code -EMFILE}: this process has no descriptor left, which says nothing about the
	 * pid)
	 */
	public int pidfdOpen(long pid) {
		return this.calls.pidfdOpen(pid);
	}

	/**
	 * Sends a signal through a pidfd: the process it names cannot have been replaced.
	 * Returns 0 or the errno.
	 */
	public int pidfdSendSignal(int pidfd, int signal) {
		return this.calls.pidfdSendSignal(pidfd, signal, 0);
	}

	/**
	 * Whether the process a pidfd names is not yet reaped: {@code pidfd_send_signal} with
	 * signal 0, which sends nothing and fails once the process is gone (its pid may then
	 * name another process; the pidfd never does).
	 */
	public boolean pidfdAlive(int pidfd) {
		return this.calls.pidfdSendSignal(pidfd, 0, 0) == 0;
	}

	/**
	 * Sends a signal to the process group of the process a pidfd names
	 * ({@code PIDFD_SIGNAL_PROCESS_GROUP}), so the group is the one of that very process,
	 * whatever happens to its pid number. Returns 0 or the errno ({@code EINVAL} on
	 * kernels before 6.9, which lack the flag).
	 */
	public int pidfdSendSignalToGroup(int pidfd, int signal) {
		return this.calls.pidfdSendSignal(pidfd, signal, PIDFD_SIGNAL_PROCESS_GROUP);
	}

	/**
	 * Opens a pipe for a child's output, both ends close-on-exec: the read end
	 * non-blocking (the pump must never wait on one child), the write end blocking (a
	 * child that outpaces its reader waits, as it would on a terminal).
	 * @return the read end and the write end
	 * @throws NativeSpawnException carrying the errno ({@code EMFILE}: this JVM has no
	 * descriptor left)
	 */
	public int[] pipe() throws NativeSpawnException {
		int[] ends = blockingPipe();
		int result = this.calls.fcntl(ends[0], F_SETFL, O_NONBLOCK);
		if (result < 0) {
			String reason = describe(-result);
			close(ends[0]);
			close(ends[1]);
			throw new NativeSpawnException("fcntl(O_NONBLOCK)", reason);
		}
		return ends;
	}

	/**
	 * Opens a pipe whose ends both block, both close-on-exec: a child's stdin, or its
	 * stdout read as a stream.
	 * @return the read end and the write end
	 * @throws NativeSpawnException carrying the errno ({@code EMFILE}: this JVM has no
	 * descriptor left)
	 */
	public int[] blockingPipe() throws NativeSpawnException {
		int[] ends = new int[2];
		int error = this.calls.pipe2(ends, O_CLOEXEC);
		if (error != 0) {
			throw new NativeSpawnException("pipe2", describe(error));
		}
		return ends;
	}

	/**
	 * Reads what a descriptor has into {@code buffer} (a direct buffer), from its
	 * position up to its limit; the position is not moved.
	 * @return the bytes read, 0 at end of file, or the errno negated ({@code -EAGAIN}:
	 * nothing to read now)
	 */
	public int read(int fd, ByteBuffer buffer) {
		while (true) {
			int read = this.calls.read(fd, buffer);
			if (read != -EINTR) {
				return read;
			}
		}
	}

	/**
	 * Sets the capacity of a pipe ({@code F_SETPIPE_SZ}); the kernel rounds it up to a
	 * power-of-two number of pages.
	 * @return the capacity it now has, or the errno negated ({@code EPERM}: past what
	 * this user may have in pipes)
	 */
	public int resizePipe(int fd, int bytes) {
		return this.calls.fcntl(fd, F_SETPIPE_SZ, bytes);
	}

	/** The capacity of a pipe ({@code F_GETPIPE_SZ}), or the errno negated. */
	public int pipeCapacity(int fd) {
		return this.calls.fcntl(fd, F_GETPIPE_SZ, 0);
	}

	/**
	 * {@code open(path, flags, mode)}.
	 * @return the descriptor, or the errno negated
	 */
	public int open(String path, int flags, int mode) {
		return this.calls.open(path, flags, mode);
	}

	/**
	 * {@code fstat(fd)}: what an open descriptor is, which no one can swap once it is
	 * open.
	 * @throws IOException carrying the errno
	 */
	public FileStatus fstat(int fd) throws IOException {
		int[] fields = new int[3];
		int error = this.calls.fstat(fd, fields);
		if (error != 0) {
			throw new IOException("fstat: " + describe(error));
		}
		int mode = fields[0];
		return new FileStatus((mode & S_IFMT) == S_IFREG, (mode & S_IFMT) == S_IFIFO, fields[1], fields[2]);
	}

	/** This process's effective uid. */
	public int geteuid() {
		return this.calls.geteuid();
	}

	/**
	 * Lowers the calling thread's priority: raises its nice value by {@code increment}
	 * (on Linux a nice value is a thread's own, and raising it needs no privilege). Best
	 * effort: where it is refused or the native backend is unavailable, the thread keeps
	 * its priority.
	 */
	public void lowerThisThreadsPriority(int increment) {
		if (isAvailable()) {
			this.calls.nice(increment);
		}
	}

	/** Closes a descriptor. */
	public void close(int fd) {
		this.calls.close(fd);
	}

	/**
	 * Raises this process's soft {@code RLIMIT_NOFILE} to its hard limit, as systemd
	 * services and the JDK's {@code -XX:+MaxFDLimit} do.
	 * @return the soft and hard limits before and after, or {@code null} when they cannot
	 * be read
	 */
	public @Nullable DescriptorLimit raiseDescriptorLimit() {
		long[] limits = new long[2];
		if (this.calls.getrlimit(RLIMIT_NOFILE, limits) != 0) {
			return null;
		}
		long before = limits[0];
		if (before != limits[1] && this.calls.setrlimit(RLIMIT_NOFILE, limits[1], limits[1]) == 0) {
			this.calls.getrlimit(RLIMIT_NOFILE, limits);
		}
		return new DescriptorLimit(before, limits[0], limits[1]);
	}

	private boolean probePidfd() {
		try {
			int fd = pidfdOpen(ProcessHandle.current().pid());
			if (fd < 0) {
				return false;
			}
			this.calls.close(fd);
			return true;
		}
		catch (LinkageError | RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Parses a signal given as a name ({@code TERM}, {@code SIGTERM}) or a number.
	 * @throws IllegalArgumentException naming the value when it is not a signal of this
	 * platform
	 */
	public static int signalNumber(String value) {
		String trimmed = value.trim().toUpperCase(Locale.ROOT);
		if (!trimmed.isEmpty() && trimmed.chars().allMatch(Character::isDigit)) {
			int number = Integer.parseInt(trimmed);
			if (number > 0 && number < 65) {
				return number;
			}
		}
		String name = trimmed.startsWith("SIG") ? trimmed : "SIG" + trimmed;
		for (Signal signal : Signal.values()) {
			if (signal.name().equals(name) && signal.defined()) {
				return signal.intValue();
			}
		}
		throw new IllegalArgumentException(
				"'" + value + "' is not a signal (expected a name such as TERM, or a number)");
	}

	/** The short name of a signal ({@code TERM}), or its number when unnamed. */
	public static String signalName(int number) {
		for (Signal signal : Signal.values()) {
			if (signal.defined() && signal.intValue() == number) {
				return signal.name().substring(3);
			}
		}
		return Integer.toString(number);
	}

	/**
	 * This process's descriptor limit: the soft limit at start, and the soft and hard
	 * limits now ({@code -1}: unlimited).
	 *
	 * @param softBefore the soft limit before it was raised
	 * @param soft the soft limit in force
	 * @param hard the hard limit
	 */
	public record DescriptorLimit(long softBefore, long soft, long hard) {
	}

	/**
	 * What {@link Posix#fstat(int)} found.
	 *
	 * @param regular whether it is a regular file
	 * @param fifo whether it is a FIFO
	 * @param uid its owner
	 * @param links its number of hard links
	 */
	public record FileStatus(boolean regular, boolean fifo, int uid, int links) {
	}

	/**
	 * The result of {@link Posix#waitpid(long)}.
	 *
	 * @param kind what happened
	 * @param status the wait status, for {@link Kind#EXITED}
	 */
	public record WaitResult(Kind kind, int status) {

		static final WaitResult RUNNING = new WaitResult(Kind.RUNNING, 0);

		static final WaitResult NOT_A_CHILD = new WaitResult(Kind.NOT_A_CHILD, 0);

		/** What a non-blocking wait for one pid found. */
		public enum Kind {

			/** It has not exited. */
			RUNNING,

			/** It exited and was collected now. */
			EXITED,

			/** It is not (or no longer) our child: someone else collected it. */
			NOT_A_CHILD

		}

	}

}
