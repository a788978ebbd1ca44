package dev.tether.supervisor.internal.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import jnr.constants.platform.Errno;
import jnr.constants.platform.OpenFlags;
import jnr.constants.platform.Signal;
import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;
import org.jspecify.annotations.Nullable;

/**
 * The native calls Tether makes, with their errors turned into values: {@code kill}, {@code waitpid} and
 * {@code strerror} through jnr-posix, the rest through Tether's own jnr-ffi binding ({@link LibC}). Linux only; check
 * {@link #isAvailable()}.
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

	private static final int WNOHANG = 1;

	private static final long SYS_PIDFD_SEND_SIGNAL = 424;

	private static final long SYS_PIDFD_OPEN = 434;

	private static final int PIDFD_SIGNAL_PROCESS_GROUP = 1 << 2;

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

	private static final int F_SETFL = 4;

	private static final int F_SETPIPE_SZ = 1031;

	private static final int F_GETPIPE_SZ = 1032;

	private static final Posix INSTANCE = load();

	private final LibC libc;

	private final POSIX posix;

	private final Runtime runtime;

	private final boolean pidfdAvailable;

	private Posix(@Nullable LibC libc, @Nullable POSIX posix) {
		this.libc = libc;
		this.posix = posix;
		this.runtime = (libc != null) ? Runtime.getRuntime(libc) : null;
		this.pidfdAvailable = (libc != null) && probePidfd();
	}

	private static Posix load() {
		if (!isLinux()) {
			return new Posix(null, null);
		}
		try {
			return new Posix(LibraryLoader.create(LibC.class).load("c"), POSIXFactory.getNativePOSIX());
		}
		catch (LinkageError | RuntimeException ex) {
			return new Posix(null, null);
		}
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
		return this.libc != null;
	}

	/** Whether the kernel has {@code pidfd_open} and {@code pidfd_send_signal}. */
	public boolean isPidfdAvailable() {
		return this.pidfdAvailable;
	}

	LibC libc() {
		return this.libc;
	}

	Runtime runtime() {
		return this.runtime;
	}

	/** The message of an errno value. */
	public String describe(int errno) {
		return this.posix.strerror(errno) + " (" + Errno.valueOf(errno).name() + ")";
	}

	int lastErrno() {
		return LastError.getLastError(this.runtime);
	}

	/**
	 * Collects the exit of one specific child if it has exited, without blocking. Never {@code waitpid(-1)}: that
	 * would steal the exits of every other {@link Process} in the JVM.
	 */
	public WaitResult waitpid(long pid) {
		int[] status = new int[1];
		while (true) {
			long result = this.posix.waitpid(pid, status, WNOHANG);
			if (result == pid) {
				return new WaitResult(WaitResult.Kind.EXITED, status[0]);
			}
			if (result == 0) {
				return WaitResult.RUNNING;
			}
			if (this.posix.errno() != Errno.EINTR.intValue()) {
				return WaitResult.NOT_A_CHILD;
			}
		}
	}

	/** {@code kill(pid, signal)}; a negative pid names a process group. Returns 0 or the errno. */
	public int kill(long pid, int signal) {
		return (this.posix.kill(Math.toIntExact(pid), signal) == 0) ? 0 : this.posix.errno();
	}

	/**
	 * Opens a pidfd for the pid.
	 * @return the descriptor, or the errno negated ({@code -ESRCH}: no such process; {@code -EMFILE}: this process
	 * has no descriptor left, which says nothing about the pid)
	 */
	public int pidfdOpen(long pid) {
		int fd = (int) this.libc.syscall(SYS_PIDFD_OPEN, pid, 0, 0, 0);
		return (fd >= 0) ? fd : -lastErrno();
	}

	/** Sends a signal through a pidfd: the process it names cannot have been replaced. Returns 0 or the errno. */
	public int pidfdSendSignal(int pidfd, int signal) {
		return (this.libc.syscall(SYS_PIDFD_SEND_SIGNAL, pidfd, signal, 0, 0) == 0) ? 0 : lastErrno();
	}

	/**
	 * Sends a signal to the process group of the process a pidfd names ({@code PIDFD_SIGNAL_PROCESS_GROUP}), so the
	 * group is the one of that very process, whatever happens to its pid number. Returns 0 or the errno
	 * ({@code EINVAL} on kernels before 6.9, which lack the flag).
	 */
	public int pidfdSendSignalToGroup(int pidfd, int signal) {
		return (this.libc.syscall(SYS_PIDFD_SEND_SIGNAL, pidfd, signal, 0, PIDFD_SIGNAL_PROCESS_GROUP) == 0) ? 0
				: lastErrno();
	}

	/**
	 * Opens a pipe for a child's output, both ends close-on-exec: the read end non-blocking (the pump must never wait
	 * on one child), the write end blocking (a child that outpaces its reader waits, as it would on a terminal).
	 * @return the read end and the write end
	 * @throws NativeSpawnException carrying the errno ({@code EMFILE}: this JVM has no descriptor left)
	 */
	public int[] pipe() throws NativeSpawnException {
		int[] ends = new int[2];
		if (this.libc.pipe2(ends, O_CLOEXEC) != 0) {
			throw new NativeSpawnException("pipe2", describe(lastErrno()));
		}
		if (this.libc.fcntl(ends[0], F_SETFL, O_NONBLOCK) != 0) {
			String reason = describe(lastErrno());
			close(ends[0]);
			close(ends[1]);
			throw new NativeSpawnException("fcntl(O_NONBLOCK)", reason);
		}
		return ends;
	}

	/**
	 * Opens a pipe whose ends both block, both close-on-exec: a child's stdin, or its stdout read as a stream.
	 * @return the read end and the write end
	 * @throws NativeSpawnException carrying the errno ({@code EMFILE}: this JVM has no descriptor left)
	 */
	public int[] blockingPipe() throws NativeSpawnException {
		int[] ends = new int[2];
		if (this.libc.pipe2(ends, O_CLOEXEC) != 0) {
			throw new NativeSpawnException("pipe2", describe(lastErrno()));
		}
		return ends;
	}

	/**
	 * Reads what a descriptor has into {@code buffer} (a direct buffer), from its position up to its limit; the
	 * position is not moved.
	 * @return the bytes read, 0 at end of file, or the errno negated ({@code -EAGAIN}: nothing to read now)
	 */
	public int read(int fd, ByteBuffer buffer) {
		while (true) {
			long read = this.libc.read(fd, buffer, buffer.remaining());
			if (read >= 0) {
				return (int) read;
			}
			int errno = lastErrno();
			if (errno != Errno.EINTR.intValue()) {
				return -errno;
			}
		}
	}

	/**
	 * Sets the capacity of a pipe ({@code F_SETPIPE_SZ}); the kernel rounds it up to a power-of-two number of pages.
	 * @return the capacity it now has, or the errno negated ({@code EPERM}: past what this user may have in pipes)
	 */
	public int resizePipe(int fd, int bytes) {
		int capacity = this.libc.fcntl(fd, F_SETPIPE_SZ, bytes);
		return (capacity >= 0) ? capacity : -lastErrno();
	}

	/** The capacity of a pipe ({@code F_GETPIPE_SZ}), or the errno negated. */
	public int pipeCapacity(int fd) {
		int capacity = this.libc.fcntl(fd, F_GETPIPE_SZ, 0);
		return (capacity >= 0) ? capacity : -lastErrno();
	}

	/**
	 * {@code open(path, flags, mode)}.
	 * @return the descriptor, or the errno negated
	 */
	public int open(String path, int flags, int mode) {
		int fd = this.posix.open(path, flags, mode);
		return (fd >= 0) ? fd : -this.posix.errno();
	}

	/**
	 * {@code fstat(fd)}: what an open descriptor is, which no one can swap once it is open.
	 * @throws IOException carrying the errno
	 */
	public FileStatus fstat(int fd) throws IOException {
		FileStat stat = this.posix.allocateStat();
		if (this.posix.fstat(fd, stat) != 0) {
			throw new IOException("fstat: " + describe(this.posix.errno()));
		}
		return new FileStatus(stat.isFile(), stat.isFifo(), stat.uid(), stat.nlink(), stat.mode() & 07777);
	}

	/** This process's effective uid. */
	public int geteuid() {
		return this.posix.geteuid();
	}

	/** Closes a descriptor. */
	public void close(int fd) {
		this.libc.close(fd);
	}

	private boolean probePidfd() {
		try {
			int fd = pidfdOpen(ProcessHandle.current().pid());
			if (fd < 0) {
				return false;
			}
			this.libc.close(fd);
			return true;
		}
		catch (LinkageError | RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Allocates a native, NULL-terminated array of C strings. The strings live as long as the returned holder.
	 */
	CStringArray cStrings(List<String> values) {
		return new CStringArray(this.runtime, values);
	}

	/**
	 * Parses a signal given as a name ({@code TERM}, {@code SIGTERM}) or a number.
	 * @throws IllegalArgumentException naming the value when it is not a signal of this platform
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
		throw new IllegalArgumentException("'" + value + "' is not a signal (expected a name such as TERM, or a number)");
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
	 * What {@link Posix#fstat(int)} found.
	 *
	 * @param regular whether it is a regular file
	 * @param fifo whether it is a FIFO
	 * @param uid its owner
	 * @param links its number of hard links
	 * @param permissions its permission bits
	 */
	public record FileStatus(boolean regular, boolean fifo, int uid, int links, int permissions) {
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

	/** Native C strings kept reachable while a call uses them. */
	static final class CStringArray {

		private final Pointer array;

		CStringArray(Runtime runtime, List<String> values) {
			// Why one block: the pointer array and every string live in a single allocation, so a spawn with a large
			// environment costs one malloc instead of one per variable.
			int size = runtime.addressSize();
			byte[][] encoded = new byte[values.size()][];
			long total = (long) (values.size() + 1) * size;
			for (int i = 0; i < values.size(); i++) {
				encoded[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
				total += encoded[i].length + 1;
			}
			this.array = Memory.allocateDirect(runtime, total, true);
			long offset = (long) (values.size() + 1) * size;
			for (int i = 0; i < encoded.length; i++) {
				this.array.put(offset, encoded[i], 0, encoded[i].length);
				this.array.putPointer((long) i * size, this.array.slice(offset));
				offset += encoded[i].length + 1;
			}
		}

		Pointer pointer() {
			return this.array;
		}

	}

}
