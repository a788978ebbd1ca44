package dev.tether.supervisor.internal.os;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The libc calls behind {@link Posix}, {@link PosixSpawn} and {@link Epoll}, one
 * implementation per native backend: jnr ({@link JnrCalls}) on JDK 17 to 21, the Foreign
 * Function and Memory API ({@code FfmCalls}, a multi-release class of the jar) on JDK 22
 * and later. Every call reports its error as a value (an errno, or an errno negated where
 * a result shares the return), never as an exception.
 */
interface NativeCalls {

	/** {@code ffm} or {@code jnr}. */
	String name();

	/** {@code strerror(errno)}. */
	String strerror(int errno);

	/**
	 * {@code waitpid(pid, &status, WNOHANG)} once.
	 * @return the pid when it exited (its wait status then in {@code status[0]}), 0 while
	 * it runs, or the errno negated
	 */
	long waitpid(long pid, int[] status);

	/** {@code kill(pid, signal)}: 0 or the errno. */
	int kill(int pid, int signal);

	/** {@code pidfd_open(pid, 0)}: the descriptor or the errno negated. */
	int pidfdOpen(long pid);

	/** {@code pidfd_send_signal(pidfd, signal, NULL, flags)}: 0 or the errno. */
	int pidfdSendSignal(int pidfd, int signal, int flags);

	/** {@code pipe2(ends, flags)}: 0 or the errno. */
	int pipe2(int[] ends, int flags);

	/** {@code fcntl(fd, command, argument)}: its result or the errno negated. */
	int fcntl(int fd, int command, int argument);

	/**
	 * {@code read(fd, ...)} into a direct buffer from its position to its limit, once:
	 * the bytes or the errno negated.
	 */
	int read(int fd, ByteBuffer buffer);

	/** {@code open(path, flags, mode)}: the descriptor or the errno negated. */
	int open(String path, int flags, int mode);

	/**
	 * What an open descriptor is: {@code fields} receives its mode ({@code st_mode}),
	 * owner and number of links.
	 * @return 0 or the errno
	 */
	int fstat(int fd, int[] fields);

	/** {@code geteuid()}. */
	int geteuid();

	/**
	 * {@code nice(increment)}: on Linux, the calling thread's nice value alone.
	 * @return the new nice value, or -1 when it was refused (or is -1)
	 */
	int nice(int increment);

	/** {@code close(fd)}: 0 or the errno. */
	int close(int fd);

	/**
	 * {@code getrlimit(resource, ...)}: 0 or the errno; the soft limit goes to
	 * {@code limits[0]}, the hard one to {@code limits[1]} ({@code -1}: unlimited).
	 */
	int getrlimit(int resource, long[] limits);

	/** {@code setrlimit(resource, {soft, hard})}: 0 or the errno. */
	int setrlimit(int resource, long soft, long hard);

	/** {@code socket(domain, type, protocol)}: the descriptor or the errno negated. */
	int socket(int domain, int type, int protocol);

	/** {@code bind(fd, address, address.length)}: 0 or the errno. */
	int bind(int fd, byte[] address);

	/** {@code listen(fd, backlog)}: 0 or the errno. */
	int listen(int fd, int backlog);

	/** {@code setsockopt(fd, level, option, &value, sizeof(int))}: 0 or the errno. */
	int setsockopt(int fd, int level, int option, int value);

	/**
	 * {@code recvmsg(fd, ..., flags)} of one datagram into {@code data}, its control
	 * messages into {@code control}.
	 * @param received receives the length of the control messages
	 * ({@code msg_controllen}) and the message's flags ({@code msg_flags})
	 * @return the bytes of the datagram, or the errno negated
	 */
	int recvmsg(int fd, byte[] data, byte[] control, int flags, int[] received);

	/** {@code epoll_create1(flags)}: the descriptor or the errno negated. */
	int epollCreate(int flags);

	/** Native room for {@code capacity} {@code struct epoll_event}s. */
	EpollEvents epollEvents(int capacity);

	/** Whether glibc has {@code posix_spawn_file_actions_addchdir_np} (2.29+). */
	boolean hasChdirAction();

	/** Whether glibc has {@code posix_spawn_file_actions_addclosefrom_np} (2.34+). */
	boolean hasClosefromAction();

	/**
	 * A spawn to prepare: file actions and attributes, to {@link SpawnCall#close() close}
	 * once spawned.
	 */
	SpawnCall spawnCall();

	/**
	 * Where {@link #recvmsg} lays a message out in its native block: the message header,
	 * its iovec, the control messages, then the data.
	 */
	final class MessageBlock {

		static final long IOVEC = 64;

		static final long CONTROL = 128;

		/** The most control bytes a receive takes. */
		static final int MAX_CONTROL = 128;

		static final long DATA = CONTROL + MAX_CONTROL;

		private MessageBlock() {
		}

	}

	/**
	 * Native {@code struct epoll_event}s, read and written by one thread at a time. Each
	 * method returns the errno (negated where a count shares the return).
	 */
	interface EpollEvents {

		/**
		 * {@code epoll_ctl(epfd, operation, fd, ...)} with the first event set to
		 * {@code flags} and {@code fd}.
		 */
		int control(int epfd, int operation, int fd, int flags);

		/**
		 * {@code epoll_wait(epfd, ...)} into these events: how many are ready, or the
		 * errno negated.
		 */
		int await(int epfd, int timeoutMillis);

		/** The descriptor of the {@code index}th event. */
		int fd(int index);

	}

	/**
	 * One {@code posix_spawnp} with its file actions and attributes. Every method returns
	 * 0 or the error number glibc returned.
	 */
	interface SpawnCall extends AutoCloseable {

		int initActions();

		int initAttributes();

		int addOpen(int fd, String path, int flags, int mode);

		int addDup2(int fd, int newFd);

		int addClose(int fd);

		int addClosefrom(int from);

		int addChdir(String path);

		/** {@code posix_spawnattr_setsigmask} with an empty set. */
		int emptySignalMask();

		/**
		 * {@code posix_spawnattr_setsigdefault} with every signal but {@code kept} (those
		 * cannot be caught).
		 */
		int defaultSignalsBut(int... kept);

		int setFlags(short flags);

		/** {@code posix_spawnp}; the child's pid goes to {@code pid[0]}. */
		int spawnp(String file, List<String> argv, List<String> env, int[] pid);

		/** Destroys what was initialised. */
		@Override
		void close();

	}

}
