package dev.tether.supervisor.internal.os;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.ToIntFunction;

import jnr.ffi.LastError;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.byref.IntByReference;
import jnr.posix.FileStat;
import jnr.posix.POSIX;
import jnr.posix.POSIXFactory;

/**
 * The jnr backend (JDK 17 to 21): {@code kill}, {@code waitpid}, {@code open},
 * {@code fstat} and {@code strerror} through jnr-posix, the rest through Tether's own
 * jnr-ffi binding ({@link LibC}).
 */
final class JnrCalls implements NativeCalls {

	private static final long SYS_PIDFD_SEND_SIGNAL = 424;

	private static final long SYS_PIDFD_OPEN = 434;

	private static final int WNOHANG = 1;

	// Why: glibc's opaque types are 80 (file actions), 336 (attributes) and 128 (sigset)
	// bytes on 64-bit Linux; the buffers are larger so that no layout change can make
	// glibc write past them.
	private static final int OPAQUE_SIZE = 1024;

	private final LibC libc;

	private final POSIX posix;

	private final Runtime runtime;

	// Why one per thread, kept: the notify poller receives every child's datagrams, a
	// thousand a second from 500 watchdogs, with no native allocation each.
	private final ThreadLocal<Pointer> messages = new ThreadLocal<>();

	private final boolean chdirAction;

	private final boolean closefromAction;

	JnrCalls() {
		this.libc = LibraryLoader.create(LibC.class).load("c");
		this.posix = POSIXFactory.getNativePOSIX();
		this.runtime = Runtime.getRuntime(this.libc);
		this.chdirAction = probe((actions) -> this.libc.posix_spawn_file_actions_addchdir_np(actions, "/"));
		this.closefromAction = probe((actions) -> this.libc.posix_spawn_file_actions_addclosefrom_np(actions, 3));
	}

	@Override
	public String name() {
		return "jnr";
	}

	@Override
	public String strerror(int errno) {
		return this.posix.strerror(errno);
	}

	private int lastErrno() {
		return LastError.getLastError(this.runtime);
	}

	@Override
	public long waitpid(long pid, int[] status) {
		long result = this.posix.waitpid(pid, status, WNOHANG);
		return (result >= 0) ? result : -this.posix.errno();
	}

	@Override
	public int kill(int pid, int signal) {
		return (this.posix.kill(pid, signal) == 0) ? 0 : this.posix.errno();
	}

	@Override
	public int pidfdOpen(long pid) {
		int fd = (int) this.libc.syscall(SYS_PIDFD_OPEN, pid, 0, 0, 0);
		return (fd >= 0) ? fd : -lastErrno();
	}

	@Override
	public int pidfdSendSignal(int pidfd, int signal, int flags) {
		return (this.libc.syscall(SYS_PIDFD_SEND_SIGNAL, pidfd, signal, 0, flags) == 0) ? 0 : lastErrno();
	}

	@Override
	public int pipe2(int[] ends, int flags) {
		return (this.libc.pipe2(ends, flags) == 0) ? 0 : lastErrno();
	}

	@Override
	public int fcntl(int fd, int command, int argument) {
		int result = this.libc.fcntl(fd, command, argument);
		return (result >= 0) ? result : -lastErrno();
	}

	@Override
	public int read(int fd, ByteBuffer buffer) {
		long read = this.libc.read(fd, buffer, buffer.remaining());
		return (read >= 0) ? (int) read : -lastErrno();
	}

	@Override
	public int open(String path, int flags, int mode) {
		int fd = this.posix.open(path, flags, mode);
		return (fd >= 0) ? fd : -this.posix.errno();
	}

	@Override
	public int fstat(int fd, int[] fields) {
		FileStat stat = this.posix.allocateStat();
		if (this.posix.fstat(fd, stat) != 0) {
			return this.posix.errno();
		}
		fields[0] = stat.mode();
		fields[1] = stat.uid();
		fields[2] = stat.nlink();
		return 0;
	}

	@Override
	public int geteuid() {
		return this.posix.geteuid();
	}

	@Override
	public int nice(int increment) {
		return this.libc.nice(increment);
	}

	@Override
	public int close(int fd) {
		return (this.libc.close(fd) == 0) ? 0 : lastErrno();
	}

	@Override
	public int getrlimit(int resource, long[] limits) {
		return (this.libc.getrlimit(resource, limits) == 0) ? 0 : lastErrno();
	}

	@Override
	public int setrlimit(int resource, long soft, long hard) {
		return (this.libc.setrlimit(resource, new long[] { soft, hard }) == 0) ? 0 : lastErrno();
	}

	@Override
	public int socket(int domain, int type, int protocol) {
		int fd = this.libc.socket(domain, type, protocol);
		return (fd >= 0) ? fd : -lastErrno();
	}

	@Override
	public int bind(int fd, byte[] address) {
		return (this.libc.bind(fd, address, address.length) == 0) ? 0 : lastErrno();
	}

	@Override
	public int listen(int fd, int backlog) {
		return (this.libc.listen(fd, backlog) == 0) ? 0 : lastErrno();
	}

	@Override
	public int setsockopt(int fd, int level, int option, int value) {
		return (this.libc.setsockopt(fd, level, option, new int[] { value }, Integer.BYTES) == 0) ? 0 : lastErrno();
	}

	@Override
	public int recvmsg(int fd, byte[] data, byte[] control, int flags, int[] received) {
		// Why these offsets: struct msghdr is seven fields of the address size (the
		// 32-bit length of the name padded to one) and struct iovec two.
		long size = this.runtime.addressSize();
		Pointer block = messageBlock(MessageBlock.DATA + data.length);
		block.putAddress(0, 0);
		block.putInt(size, 0);
		block.putAddress(2 * size, block.address() + MessageBlock.IOVEC);
		block.putAddress(3 * size, 1);
		block.putAddress(4 * size, block.address() + MessageBlock.CONTROL);
		block.putAddress(5 * size, control.length);
		block.putInt(6 * size, 0);
		block.putAddress(MessageBlock.IOVEC, block.address() + NativeCalls.MessageBlock.DATA);
		block.putAddress(MessageBlock.IOVEC + size, data.length);
		long read = this.libc.recvmsg(fd, block, flags);
		if (read < 0) {
			return -lastErrno();
		}
		int controlLength = (int) Math.min(block.getAddress(5 * size), control.length);
		block.get(MessageBlock.CONTROL, control, 0, controlLength);
		block.get(MessageBlock.DATA, data, 0, (int) Math.min(read, data.length));
		received[0] = controlLength;
		received[1] = block.getInt(6 * size);
		return (int) read;
	}

	/** This thread's native block for {@link #recvmsg}, of at least {@code bytes}. */
	private Pointer messageBlock(long bytes) {
		Pointer block = this.messages.get();
		if (block == null || block.size() < bytes) {
			block = Memory.allocateDirect(this.runtime, bytes, true);
			this.messages.set(block);
		}
		return block;
	}

	@Override
	public int epollCreate(int flags) {
		int fd = this.libc.epoll_create1(flags);
		return (fd >= 0) ? fd : -lastErrno();
	}

	@Override
	public EpollEvents epollEvents(int capacity) {
		return new JnrEpollEvents(Memory.allocateDirect(this.runtime, (long) Epoll.EVENT_SIZE * capacity, true));
	}

	@Override
	public boolean hasChdirAction() {
		return this.chdirAction;
	}

	@Override
	public boolean hasClosefromAction() {
		return this.closefromAction;
	}

	@Override
	public SpawnCall spawnCall() {
		return new JnrSpawnCall();
	}

	/**
	 * Whether an optional file action binds. Why probe: jnr binds a function at its first
	 * call, so a missing one would otherwise fail as an {@link UnsatisfiedLinkError} at
	 * the first spawn that needs it.
	 */
	private boolean probe(ToIntFunction<Pointer> action) {
		Pointer actions = Memory.allocateDirect(this.runtime, OPAQUE_SIZE, true);
		if (this.libc.posix_spawn_file_actions_init(actions) != 0) {
			return false;
		}
		try {
			return action.applyAsInt(actions) == 0;
		}
		catch (UnsatisfiedLinkError ex) {
			return false;
		}
		finally {
			this.libc.posix_spawn_file_actions_destroy(actions);
		}
	}

	/**
	 * A native, NULL-terminated array of C strings, in a single allocation (a spawn with
	 * a large environment costs one malloc instead of one per variable).
	 */
	private Pointer cStrings(List<String> values) {
		int size = this.runtime.addressSize();
		byte[][] encoded = new byte[values.size()][];
		long total = (long) (values.size() + 1) * size;
		for (int i = 0; i < values.size(); i++) {
			encoded[i] = values.get(i).getBytes(StandardCharsets.UTF_8);
			total += encoded[i].length + 1;
		}
		Pointer array = Memory.allocateDirect(this.runtime, total, true);
		long offset = (long) (values.size() + 1) * size;
		for (int i = 0; i < encoded.length; i++) {
			array.put(offset, encoded[i], 0, encoded[i].length);
			array.putPointer((long) i * size, array.slice(offset));
			offset += encoded[i].length + 1;
		}
		return array;
	}

	private final class JnrEpollEvents implements EpollEvents {

		private final Pointer events;

		JnrEpollEvents(Pointer events) {
			this.events = events;
		}

		@Override
		public int control(int epfd, int operation, int fd, int flags) {
			this.events.putInt(0, flags);
			this.events.putLong(Epoll.DATA_OFFSET, fd);
			return (JnrCalls.this.libc.epoll_ctl(epfd, operation, fd, this.events) == 0) ? 0 : lastErrno();
		}

		@Override
		public int await(int epfd, int timeoutMillis) {
			try {
				int ready = JnrCalls.this.libc.epoll_wait(epfd, this.events,
						(int) (this.events.size() / Epoll.EVENT_SIZE), timeoutMillis);
				return (ready >= 0) ? ready : -lastErrno();
			}
			finally {
				// Why: native memory from jnr is freed once its Java object is
				// unreachable; the kernel writes into this buffer at the end of a wait
				// that may last hours.
				Reference.reachabilityFence(this.events);
			}
		}

		@Override
		public int fd(int index) {
			return (int) this.events.getLong((long) index * Epoll.EVENT_SIZE + Epoll.DATA_OFFSET);
		}

	}

	private final class JnrSpawnCall implements SpawnCall {

		private final Pointer actions = Memory.allocateDirect(JnrCalls.this.runtime, OPAQUE_SIZE, true);

		private final Pointer attributes = Memory.allocateDirect(JnrCalls.this.runtime, OPAQUE_SIZE, true);

		private final Pointer signals = Memory.allocateDirect(JnrCalls.this.runtime, OPAQUE_SIZE, true);

		private boolean actionsInitialised;

		private boolean attributesInitialised;

		@Override
		public int initActions() {
			int error = JnrCalls.this.libc.posix_spawn_file_actions_init(this.actions);
			this.actionsInitialised = (error == 0);
			return error;
		}

		@Override
		public int initAttributes() {
			int error = JnrCalls.this.libc.posix_spawnattr_init(this.attributes);
			this.attributesInitialised = (error == 0);
			return error;
		}

		@Override
		public int addOpen(int fd, String path, int flags, int mode) {
			return JnrCalls.this.libc.posix_spawn_file_actions_addopen(this.actions, fd, path, flags, mode);
		}

		@Override
		public int addDup2(int fd, int newFd) {
			return JnrCalls.this.libc.posix_spawn_file_actions_adddup2(this.actions, fd, newFd);
		}

		@Override
		public int addClose(int fd) {
			return JnrCalls.this.libc.posix_spawn_file_actions_addclose(this.actions, fd);
		}

		@Override
		public int addClosefrom(int from) {
			return JnrCalls.this.libc.posix_spawn_file_actions_addclosefrom_np(this.actions, from);
		}

		@Override
		public int addChdir(String path) {
			return JnrCalls.this.libc.posix_spawn_file_actions_addchdir_np(this.actions, path);
		}

		@Override
		public int emptySignalMask() {
			JnrCalls.this.libc.sigemptyset(this.signals);
			return JnrCalls.this.libc.posix_spawnattr_setsigmask(this.attributes, this.signals);
		}

		@Override
		public int defaultSignalsBut(int... kept) {
			JnrCalls.this.libc.sigfillset(this.signals);
			for (int signal : kept) {
				JnrCalls.this.libc.sigdelset(this.signals, signal);
			}
			return JnrCalls.this.libc.posix_spawnattr_setsigdefault(this.attributes, this.signals);
		}

		@Override
		public int setFlags(short flags) {
			return JnrCalls.this.libc.posix_spawnattr_setflags(this.attributes, flags);
		}

		@Override
		public int spawnp(String file, List<String> argv, List<String> env, int[] pid) {
			Pointer nativeArgv = cStrings(argv);
			Pointer nativeEnv = cStrings(env);
			IntByReference child = new IntByReference();
			try {
				int error = JnrCalls.this.libc.posix_spawnp(child, file, this.actions, this.attributes, nativeArgv,
						nativeEnv);
				pid[0] = child.intValue();
				return error;
			}
			finally {
				// Why: jnr frees native memory once its Java object is unreachable, which
				// could happen while the spawn still reads argv and the environment.
				Reference.reachabilityFence(nativeArgv);
				Reference.reachabilityFence(nativeEnv);
			}
		}

		@Override
		public void close() {
			if (this.attributesInitialised) {
				JnrCalls.this.libc.posix_spawnattr_destroy(this.attributes);
			}
			if (this.actionsInitialised) {
				JnrCalls.this.libc.posix_spawn_file_actions_destroy(this.actions);
			}
			Reference.reachabilityFence(this.signals);
		}

	}

}
