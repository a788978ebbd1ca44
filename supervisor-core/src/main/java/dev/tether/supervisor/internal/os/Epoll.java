package dev.tether.supervisor.internal.os;

import org.jspecify.annotations.Nullable;

/**
 * One epoll set. Waited on by one thread ({@link #await(int)} and {@link #ready(int)}),
 * or by several each taking one readiness at a time ({@link #awaitOne(int)}); descriptors
 * may be added and re-armed from any thread (the kernel serialises {@code epoll_ctl}).
 */
public final class Epoll {

	private static final int EPOLLIN = 1;

	private static final int EPOLLONESHOT = 1 << 30;

	private static final int EPOLL_CTL_ADD = 1;

	private static final int EPOLL_CTL_MOD = 3;

	private static final int O_CLOEXEC = 02000000;

	private static final int BATCH = 64;

	// Why two layouts: struct epoll_event is packed (12 bytes) on x86-64 and naturally
	// aligned (16) elsewhere.
	private static final boolean PACKED = System.getProperty("os.arch", "").matches("amd64|x86_64");

	/** The size of a {@code struct epoll_event}. */
	static final int EVENT_SIZE = PACKED ? 12 : 16;

	/** The offset of its {@code data} (where Tether puts the descriptor). */
	static final int DATA_OFFSET = PACKED ? 4 : 8;

	private final int fd;

	private final NativeCalls.EpollEvents events;

	// Why one per thread, kept: several threads wait for one event and re-arm, once per
	// turn of each pipe; a native allocation per call showed in the pump's cost per line.
	// A thread's buffer lives as long as the thread.
	private final ThreadLocal<NativeCalls.EpollEvents> oneEvent;

	private Epoll(NativeCalls calls, int fd) {
		this.fd = fd;
		this.events = calls.epollEvents(BATCH);
		this.oneEvent = ThreadLocal.withInitial(() -> calls.epollEvents(1));
	}

	/**
	 * A close-on-exec epoll set, or {@code null} where there is none (no native binding,
	 * or the kernel refused).
	 */
	public static @Nullable Epoll create(Posix posix) {
		if (!posix.isAvailable()) {
			return null;
		}
		int fd = posix.calls().epollCreate(O_CLOEXEC);
		return (fd >= 0) ? new Epoll(posix.calls(), fd) : null;
	}

	/**
	 * Watches a descriptor for readability, level-triggered. Returns whether it was
	 * added.
	 */
	public boolean add(int fd) {
		return control(EPOLL_CTL_ADD, fd, EPOLLIN);
	}

	/**
	 * Watches a descriptor for one readiness only: after it is reported once, it is not
	 * reported again until {@link #rearm(int)}. Returns whether it was added.
	 */
	public boolean addOnce(int fd) {
		return control(EPOLL_CTL_ADD, fd, EPOLLIN | EPOLLONESHOT);
	}

	/**
	 * Watches a descriptor added by {@link #addOnce(int)} for its next readiness. Returns
	 * whether it could.
	 */
	public boolean rearm(int fd) {
		return control(EPOLL_CTL_MOD, fd, EPOLLIN | EPOLLONESHOT);
	}

	private boolean control(int operation, int fd, int flags) {
		return this.oneEvent.get().control(this.fd, operation, fd, flags) == 0;
	}

	/**
	 * Waits until at least one watched descriptor is ready; {@link #ready(int)} then
	 * names them.
	 * @return how many are ready (0 or less when interrupted)
	 */
	public int await(int timeoutMillis) {
		return this.events.await(this.fd, timeoutMillis);
	}

	/**
	 * Waits until one watched descriptor is ready and names it; any number of threads may
	 * wait at once, and each readiness goes to one of them.
	 * @param timeoutMillis how long to wait at most; -1 for no limit
	 * @return the descriptor, or -1 when the wait timed out or was interrupted
	 */
	public int awaitOne(int timeoutMillis) {
		NativeCalls.EpollEvents event = this.oneEvent.get();
		return (event.await(this.fd, timeoutMillis) == 1) ? event.fd(0) : -1;
	}

	/**
	 * The descriptor of the {@code index}th readiness the last {@link #await(int)}
	 * reported.
	 */
	public int ready(int index) {
		return this.events.fd(index);
	}

}
