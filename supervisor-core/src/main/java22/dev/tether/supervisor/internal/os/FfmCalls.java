package dev.tether.supervisor.internal.os;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The Foreign Function and Memory backend (JDK 22 and later): every call is a downcall into glibc, errno captured by
 * the call itself ({@code Linker.Option.captureCallState}), so nothing loads jnr, jffi or {@code sun.misc.Unsafe}.
 * Compiled for JDK 22 and shipped as a multi-release class of the jar ({@code META-INF/versions/22}).
 */
final class FfmCalls implements NativeCalls {

	private static final Logger logger = LoggerFactory.getLogger(FfmCalls.class);

	static {
		// Why: argv and the environment are written as arrays of 64-bit addresses
		// (FfmSpawnCall); a 32-bit JVM falls back to jnr.
		if (ADDRESS.byteSize() != Long.BYTES) {
			throw new UnsupportedOperationException("the FFM backend needs a 64-bit JVM");
		}
		Module module = FfmCalls.class.getModule();
		if (!module.isNativeAccessEnabled()) {
			// Why a restricted call of no effect first: only its outcome tells access
			// that the JDK allows with a warning from access it denies
			// (--illegal-native-access=deny), which throws IllegalCallerException here,
			// before anything is bound; NativeBackends words that case.
			MemorySegment.NULL.reinterpret(0);
			String name = module.isNamed() ? module.getName() : "ALL-UNNAMED";
			logger.warn("Native access is not enabled for Tether, so the JDK warns about it and will block it in a "
					+ "future release: start the JVM with --enable-native-access={}, or add 'Enable-Native-Access: {}' "
					+ "to the manifest of the executable jar", name, name);
		}
	}

	private static final Linker LINKER = Linker.nativeLinker();

	private static final SymbolLookup LIBC = LINKER.defaultLookup();

	private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();

	private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

	private static final long SYS_PIDFD_SEND_SIGNAL = 424;

	private static final long SYS_PIDFD_OPEN = 434;

	private static final int WNOHANG = 1;

	private static final int AT_EMPTY_PATH = 0x1000;

	private static final int STATX_BASIC_STATS = 0x7ff;

	// Why: struct statx is the same on every architecture, unlike struct stat.
	private static final int STATX_SIZE = 256;

	private static final int STATX_NLINK = 16;

	private static final int STATX_UID = 20;

	private static final int STATX_MODE = 28;

	// Why one block per thread: the captured errno, the out-parameters and a struct
	// statx, written by one call at a time on each thread, with no allocation per call.
	static final long OUT = 64;

	private static final long STATX = 128;

	private static final ThreadLocal<MemorySegment> SCRATCH = ThreadLocal
		.withInitial(() -> Arena.ofAuto().allocate(STATX + STATX_SIZE, 16));

	private static final MethodHandle WAITPID = errnoCall("waitpid", JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);

	private static final MethodHandle KILL = errnoCall("kill", JAVA_INT, JAVA_INT, JAVA_INT);

	private static final MethodHandle SYSCALL = bind("syscall",
			FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG), true, 1);

	private static final MethodHandle PIPE2 = errnoCall("pipe2", JAVA_INT, ADDRESS, JAVA_INT);

	private static final MethodHandle FCNTL = bind("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
			true, 2);

	private static final MethodHandle READ = errnoCall("read", JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG);

	private static final MethodHandle OPEN = bind("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
			true, 2);

	private static final MethodHandle STATX_CALL = errnoCall("statx", JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT,
			ADDRESS);

	private static final MethodHandle GETEUID = call("geteuid", JAVA_INT);

	private static final MethodHandle NICE = call("nice", JAVA_INT, JAVA_INT);

	private static final MethodHandle CLOSE = errnoCall("close", JAVA_INT, JAVA_INT);

	private static final MethodHandle GETRLIMIT = errnoCall("getrlimit", JAVA_INT, JAVA_INT, ADDRESS);

	private static final MethodHandle SETRLIMIT = errnoCall("setrlimit", JAVA_INT, JAVA_INT, ADDRESS);

	private static final MethodHandle STRERROR = call("strerror", ADDRESS, JAVA_INT);

	static final MethodHandle SPAWNP = call("posix_spawnp", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
			ADDRESS);

	static final MethodHandle ACTIONS_INIT = call("posix_spawn_file_actions_init", JAVA_INT, ADDRESS);

	static final MethodHandle ACTIONS_DESTROY = call("posix_spawn_file_actions_destroy", JAVA_INT, ADDRESS);

	static final MethodHandle ADD_OPEN = call("posix_spawn_file_actions_addopen", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS,
			JAVA_INT, JAVA_INT);

	static final MethodHandle ADD_DUP2 = call("posix_spawn_file_actions_adddup2", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT);

	static final MethodHandle ADD_CLOSE = call("posix_spawn_file_actions_addclose", JAVA_INT, ADDRESS, JAVA_INT);

	static final @Nullable MethodHandle ADD_CLOSEFROM = optional("posix_spawn_file_actions_addclosefrom_np",
			FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

	static final @Nullable MethodHandle ADD_CHDIR = optional("posix_spawn_file_actions_addchdir_np",
			FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

	static final MethodHandle ATTR_INIT = call("posix_spawnattr_init", JAVA_INT, ADDRESS);

	static final MethodHandle ATTR_DESTROY = call("posix_spawnattr_destroy", JAVA_INT, ADDRESS);

	static final MethodHandle ATTR_SETFLAGS = call("posix_spawnattr_setflags", JAVA_INT, ADDRESS, JAVA_SHORT);

	static final MethodHandle ATTR_SETSIGMASK = call("posix_spawnattr_setsigmask", JAVA_INT, ADDRESS, ADDRESS);

	static final MethodHandle ATTR_SETSIGDEFAULT = call("posix_spawnattr_setsigdefault", JAVA_INT, ADDRESS, ADDRESS);

	static final MethodHandle SIGEMPTYSET = call("sigemptyset", JAVA_INT, ADDRESS);

	static final MethodHandle SIGFILLSET = call("sigfillset", JAVA_INT, ADDRESS);

	static final MethodHandle SIGDELSET = call("sigdelset", JAVA_INT, ADDRESS, JAVA_INT);

	@Override
	public String name() {
		return "ffm";
	}

	private static MethodHandle call(String name, MemoryLayout result, MemoryLayout... arguments) {
		return bind(name, FunctionDescriptor.of(result, arguments), false, -1);
	}

	static MethodHandle errnoCall(String name, MemoryLayout result, MemoryLayout... arguments) {
		return bind(name, FunctionDescriptor.of(result, arguments), true, -1);
	}

	/** A downcall to a libc function; with {@code errno}, its first argument is the segment errno is captured in. */
	private static MethodHandle bind(String name, FunctionDescriptor descriptor, boolean errno, int firstVariadic) {
		MemorySegment function = LIBC.find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
		Linker.Option[] options = (errno && firstVariadic >= 0)
				? new Linker.Option[] { Linker.Option.captureCallState("errno"), Linker.Option.firstVariadicArg(firstVariadic) }
				: errno ? new Linker.Option[] { Linker.Option.captureCallState("errno") } : new Linker.Option[0];
		return LINKER.downcallHandle(function, descriptor, options);
	}

	private static @Nullable MethodHandle optional(String name, FunctionDescriptor descriptor) {
		return LIBC.find(name).map((function) -> LINKER.downcallHandle(function, descriptor)).orElse(null);
	}

	static MemorySegment scratch() {
		return SCRATCH.get();
	}

	static int errno(MemorySegment scratch) {
		return (int) ERRNO.get(scratch, 0L);
	}

	/** A downcall cannot throw a checked exception; anything it throws is a bug in a descriptor above. */
	static IllegalStateException failed(Throwable ex) {
		if (ex instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (ex instanceof Error error) {
			throw error;
		}
		return new IllegalStateException(ex);
	}

	@Override
	public String strerror(int errno) {
		try {
			MemorySegment message = (MemorySegment) STRERROR.invokeExact(errno);
			return message.reinterpret(Long.MAX_VALUE).getString(0);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public long waitpid(long pid, int[] status) {
		MemorySegment scratch = scratch();
		try {
			int result = (int) WAITPID.invokeExact(scratch, (int) pid, scratch.asSlice(OUT), WNOHANG);
			if (result < 0) {
				return -errno(scratch);
			}
			status[0] = scratch.get(JAVA_INT, OUT);
			return result;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int kill(int pid, int signal) {
		MemorySegment scratch = scratch();
		try {
			return ((int) KILL.invokeExact(scratch, pid, signal) == 0) ? 0 : errno(scratch);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	private long syscall(MemorySegment scratch, long number, long arg1, long arg2, long arg3, long arg4) {
		try {
			return (long) SYSCALL.invokeExact(scratch, number, arg1, arg2, arg3, arg4);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int pidfdOpen(long pid) {
		MemorySegment scratch = scratch();
		long fd = syscall(scratch, SYS_PIDFD_OPEN, pid, 0, 0, 0);
		return (fd >= 0) ? (int) fd : -errno(scratch);
	}

	@Override
	public int pidfdSendSignal(int pidfd, int signal, int flags) {
		MemorySegment scratch = scratch();
		return (syscall(scratch, SYS_PIDFD_SEND_SIGNAL, pidfd, signal, 0, flags) == 0) ? 0 : errno(scratch);
	}

	@Override
	public int pipe2(int[] ends, int flags) {
		MemorySegment scratch = scratch();
		try {
			if ((int) PIPE2.invokeExact(scratch, scratch.asSlice(OUT), flags) != 0) {
				return errno(scratch);
			}
			ends[0] = scratch.get(JAVA_INT, OUT);
			ends[1] = scratch.get(JAVA_INT, OUT + 4);
			return 0;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int fcntl(int fd, int command, int argument) {
		MemorySegment scratch = scratch();
		try {
			int result = (int) FCNTL.invokeExact(scratch, fd, command, argument);
			return (result >= 0) ? result : -errno(scratch);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int read(int fd, ByteBuffer buffer) {
		MemorySegment scratch = scratch();
		MemorySegment target = MemorySegment.ofBuffer(buffer);
		try {
			long read = (long) READ.invokeExact(scratch, fd, target, target.byteSize());
			return (read >= 0) ? (int) read : -errno(scratch);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int open(String path, int flags, int mode) {
		MemorySegment scratch = scratch();
		try (Arena arena = Arena.ofConfined()) {
			int fd = (int) OPEN.invokeExact(scratch, arena.allocateFrom(path), flags, mode);
			return (fd >= 0) ? fd : -errno(scratch);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int fstat(int fd, int[] fields) {
		MemorySegment scratch = scratch();
		try (Arena arena = Arena.ofConfined()) {
			MemorySegment statx = scratch.asSlice(STATX, STATX_SIZE);
			if ((int) STATX_CALL.invokeExact(scratch, fd, arena.allocateFrom(""), AT_EMPTY_PATH, STATX_BASIC_STATS,
					statx) != 0) {
				return errno(scratch);
			}
			fields[0] = Short.toUnsignedInt(statx.get(JAVA_SHORT, STATX_MODE));
			fields[1] = statx.get(JAVA_INT, STATX_UID);
			fields[2] = statx.get(JAVA_INT, STATX_NLINK);
			return 0;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int geteuid() {
		try {
			return (int) GETEUID.invokeExact();
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int nice(int increment) {
		try {
			return (int) NICE.invokeExact(increment);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int close(int fd) {
		MemorySegment scratch = scratch();
		try {
			return ((int) CLOSE.invokeExact(scratch, fd) == 0) ? 0 : errno(scratch);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int getrlimit(int resource, long[] limits) {
		MemorySegment scratch = scratch();
		try {
			if ((int) GETRLIMIT.invokeExact(scratch, resource, scratch.asSlice(OUT)) != 0) {
				return errno(scratch);
			}
			limits[0] = scratch.get(JAVA_LONG, OUT);
			limits[1] = scratch.get(JAVA_LONG, OUT + 8);
			return 0;
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int setrlimit(int resource, long soft, long hard) {
		MemorySegment scratch = scratch();
		try {
			scratch.set(JAVA_LONG, OUT, soft);
			scratch.set(JAVA_LONG, OUT + 8, hard);
			return ((int) SETRLIMIT.invokeExact(scratch, resource, scratch.asSlice(OUT)) == 0) ? 0 : errno(scratch);
		}
		catch (Throwable ex) {
			throw failed(ex);
		}
	}

	@Override
	public int socket(int domain, int type, int protocol) {
		return FfmSockets.socket(domain, type, protocol);
	}

	@Override
	public int bind(int fd, byte[] address) {
		return FfmSockets.bind(fd, address);
	}

	@Override
	public int listen(int fd, int backlog) {
		return FfmSockets.listen(fd, backlog);
	}

	@Override
	public int setsockopt(int fd, int level, int option, int value) {
		return FfmSockets.setsockopt(fd, level, option, value);
	}

	@Override
	public int recvmsg(int fd, byte[] data, byte[] control, int flags, int[] received) {
		return FfmSockets.recvmsg(fd, data, control, flags, received);
	}

	@Override
	public int epollCreate(int flags) {
		return FfmSockets.epollCreate(flags);
	}

	@Override
	public EpollEvents epollEvents(int capacity) {
		return FfmSockets.epollEvents(capacity);
	}

	@Override
	public boolean hasChdirAction() {
		return ADD_CHDIR != null;
	}

	@Override
	public boolean hasClosefromAction() {
		return ADD_CLOSEFROM != null;
	}

	@Override
	public SpawnCall spawnCall() {
		return new FfmSpawnCall();
	}

}
