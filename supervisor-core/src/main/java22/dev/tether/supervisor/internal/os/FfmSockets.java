package dev.tether.supervisor.internal.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The socket and epoll calls of the {@link FfmCalls} backend: the notify protocol's datagram sockets (credentials
 * received with each message) and the poller that waits on them, apart from the process and descriptor calls.
 */
final class FfmSockets {

	private FfmSockets() {
	}

	private static final MethodHandle SOCKET = FfmCalls.errnoCall("socket", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);

	private static final MethodHandle BIND = FfmCalls.errnoCall("bind", JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);

	private static final MethodHandle LISTEN = FfmCalls.errnoCall("listen", JAVA_INT, JAVA_INT, JAVA_INT);

	private static final MethodHandle SETSOCKOPT = FfmCalls.errnoCall("setsockopt", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
			ADDRESS, JAVA_INT);

	private static final MethodHandle RECVMSG = FfmCalls.errnoCall("recvmsg", JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT);

	// Why one per thread, kept: the notify poller receives every child's datagrams, a
	// thousand a second from 500 watchdogs, with no allocation each. Laid out as in
	// MessageBlock: the message header, its iovec, the control messages, the data.
	private static final ThreadLocal<MemorySegment> MESSAGES = new ThreadLocal<>();

	private static final MethodHandle EPOLL_CREATE1 = FfmCalls.errnoCall("epoll_create1", JAVA_INT, JAVA_INT);

	private static final MethodHandle EPOLL_CTL = FfmCalls.errnoCall("epoll_ctl", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS);

	private static final MethodHandle EPOLL_WAIT = FfmCalls.errnoCall("epoll_wait", JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT,
			JAVA_INT);

	static int socket(int domain, int type, int protocol) {
		MemorySegment scratch = FfmCalls.scratch();
		try {
			int fd = (int) SOCKET.invokeExact(scratch, domain, type, protocol);
			return (fd >= 0) ? fd : -FfmCalls.errno(scratch);
		}
		catch (Throwable ex) {
			throw FfmCalls.failed(ex);
		}
	}

	static int bind(int fd, byte[] address) {
		MemorySegment scratch = FfmCalls.scratch();
		try (Arena arena = Arena.ofConfined()) {
			MemorySegment sockaddr = arena.allocate(address.length);
			sockaddr.copyFrom(MemorySegment.ofArray(address));
			return ((int) BIND.invokeExact(scratch, fd, sockaddr, address.length) == 0) ? 0 : FfmCalls.errno(scratch);
		}
		catch (Throwable ex) {
			throw FfmCalls.failed(ex);
		}
	}

	static int listen(int fd, int backlog) {
		MemorySegment scratch = FfmCalls.scratch();
		try {
			return ((int) LISTEN.invokeExact(scratch, fd, backlog) == 0) ? 0 : FfmCalls.errno(scratch);
		}
		catch (Throwable ex) {
			throw FfmCalls.failed(ex);
		}
	}

	static int setsockopt(int fd, int level, int option, int value) {
		MemorySegment scratch = FfmCalls.scratch();
		try {
			scratch.set(JAVA_INT, FfmCalls.OUT, value);
			return ((int) SETSOCKOPT.invokeExact(scratch, fd, level, option, scratch.asSlice(FfmCalls.OUT), Integer.BYTES) == 0)
					? 0 : FfmCalls.errno(scratch);
		}
		catch (Throwable ex) {
			throw FfmCalls.failed(ex);
		}
	}

	static int recvmsg(int fd, byte[] data, byte[] control, int flags, int[] received) {
		MemorySegment scratch = FfmCalls.scratch();
		MemorySegment block = MESSAGES.get();
		if (block == null || block.byteSize() < NativeCalls.MessageBlock.DATA + data.length) {
			block = Arena.ofAuto().allocate(NativeCalls.MessageBlock.DATA + data.length, 8);
			MESSAGES.set(block);
		}
		MemorySegment iovec = block.asSlice(NativeCalls.MessageBlock.IOVEC);
		block.set(ADDRESS, 0, MemorySegment.NULL);
		block.set(JAVA_INT, 8, 0);
		block.set(ADDRESS, 16, iovec);
		block.set(JAVA_LONG, 24, 1);
		block.set(ADDRESS, 32, block.asSlice(NativeCalls.MessageBlock.CONTROL));
		block.set(JAVA_LONG, 40, control.length);
		block.set(JAVA_INT, 48, 0);
		iovec.set(ADDRESS, 0, block.asSlice(NativeCalls.MessageBlock.DATA));
		iovec.set(JAVA_LONG, 8, data.length);
		try {
			long read = (long) RECVMSG.invokeExact(scratch, fd, block, flags);
			if (read < 0) {
				return -FfmCalls.errno(scratch);
			}
			int controlLength = (int) Math.min(block.get(JAVA_LONG, 40), control.length);
			MemorySegment.copy(block, JAVA_BYTE, NativeCalls.MessageBlock.CONTROL, control, 0, controlLength);
			MemorySegment.copy(block, JAVA_BYTE, NativeCalls.MessageBlock.DATA, data, 0, (int) Math.min(read, data.length));
			received[0] = controlLength;
			received[1] = block.get(JAVA_INT, 48);
			return (int) read;
		}
		catch (Throwable ex) {
			throw FfmCalls.failed(ex);
		}
	}

	static int epollCreate(int flags) {
		MemorySegment scratch = FfmCalls.scratch();
		try {
			int fd = (int) EPOLL_CREATE1.invokeExact(scratch, flags);
			return (fd >= 0) ? fd : -FfmCalls.errno(scratch);
		}
		catch (Throwable ex) {
			throw FfmCalls.failed(ex);
		}
	}

	static NativeCalls.EpollEvents epollEvents(int capacity) {
		return new FfmEpollEvents(Arena.ofAuto().allocate((long) Epoll.EVENT_SIZE * capacity, 8), capacity);
	}

	/** Events in memory of an automatic arena: kept as long as this object, including during a wait. */
	private record FfmEpollEvents(MemorySegment events, int capacity) implements NativeCalls.EpollEvents {

		@Override
		public int control(int epfd, int operation, int fd, int flags) {
			MemorySegment scratch = FfmCalls.scratch();
			this.events.set(JAVA_INT, 0, flags);
			this.events.set(JAVA_LONG_UNALIGNED, Epoll.DATA_OFFSET, fd);
			try {
				return ((int) EPOLL_CTL.invokeExact(scratch, epfd, operation, fd, this.events) == 0) ? 0
						: FfmCalls.errno(scratch);
			}
			catch (Throwable ex) {
				throw FfmCalls.failed(ex);
			}
		}

		@Override
		public int await(int epfd, int timeoutMillis) {
			MemorySegment scratch = FfmCalls.scratch();
			try {
				int ready = (int) EPOLL_WAIT.invokeExact(scratch, epfd, this.events, this.capacity, timeoutMillis);
				return (ready >= 0) ? ready : -FfmCalls.errno(scratch);
			}
			catch (Throwable ex) {
				throw FfmCalls.failed(ex);
			}
		}

		@Override
		public int fd(int index) {
			return (int) this.events.get(JAVA_LONG_UNALIGNED, (long) index * Epoll.EVENT_SIZE + Epoll.DATA_OFFSET);
		}

	}

}
