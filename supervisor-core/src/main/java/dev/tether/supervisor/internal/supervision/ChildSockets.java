package dev.tether.supervisor.internal.supervision;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.HeldSocket;
import dev.tether.supervisor.SocketActivation;
import dev.tether.supervisor.internal.os.ActivationSockets;
import dev.tether.supervisor.internal.os.HandedSocket;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.resources.KernelFiles;

/**
 * The listening sockets of socket-activated children: each opened when its child first
 * starts, handed to every process of that child, and closed when the child is removed or
 * the supervisor closes, after the child's stop. Why kept between processes: a client
 * that connects while one process ends and the next starts waits in the socket's backlog
 * instead of being refused. Thread-safe: its monitor is held for a socket's open or
 * close, a few system calls that wait on no process, so that a remove that closes a
 * child's socket and a start that reuses it never cross.
 */
final class ChildSockets implements AutoCloseable {

	private static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

	/** The kernel's default {@code somaxconn} since Linux 5.4. */
	private static final int DEFAULT_SOMAXCONN = 4096;

	private final Map<String, Open> open = new HashMap<>();

	private final @Nullable ActivationSockets sockets = Posix.get().isAvailable() ? new ActivationSockets(Posix.get())
			: null;

	/**
	 * The child's socket, opened now if it has none or its address, port or backlog
	 * changed; {@code null} when the child has no socket activation.
	 * @throws IOException naming the call, the address and port, and why it failed
	 */
	synchronized @Nullable Open socket(ChildSpec spec) throws IOException {
		SocketActivation activation = spec.socketActivation();
		Integer port = spec.port();
		if (!activation.enabled() || port == null) {
			close(spec.name());
			return null;
		}
		Open current = this.open.get(spec.name());
		if (current != null && current.sameSocket(activation, port)) {
			Open updated = new Open(current.fd(), activation,
					new HeldSocket(activation.address(), port, activation.fd(), current.held().backlog()));
			this.open.put(spec.name(), updated);
			return updated;
		}
		close(spec.name());
		if (this.sockets == null) {
			throw new IOException("socket activation needs the native backend, which this JVM cannot load");
		}
		// Why somaxconn where none is configured: it is the kernel's ceiling on a
		// backlog, as systemd's default; 4096 where it cannot be read.
		int backlog = (activation.backlog() != null) ? activation.backlog()
				: (int) KernelFiles.number(SOMAXCONN).orElse(DEFAULT_SOMAXCONN);
		int fd = this.sockets.open(activation.inetAddress(), port, backlog);
		Open opened = new Open(fd, activation, new HeldSocket(activation.address(), port, activation.fd(), backlog));
		this.open.put(spec.name(), opened);
		return opened;
	}

	/** Whether the supervisor holds the socket on this child's port. */
	synchronized boolean holdsPort(ChildSpec spec) {
		Open current = this.open.get(spec.name());
		return current != null && spec.port() != null && current.held().port() == spec.port();
	}

	/** Closes the child's socket, if it has one. */
	synchronized void close(String name) {
		Open closed = this.open.remove(name);
		if (closed != null && this.sockets != null) {
			this.sockets.close(closed.fd());
		}
	}

	@Override
	public synchronized void close() {
		List.copyOf(this.open.keySet()).forEach(this::close);
	}

	/**
	 * One child's open socket.
	 *
	 * @param fd its descriptor in this JVM
	 * @param configured the settings it was opened for
	 * @param held what it is, as the child's snapshot shows it
	 */
	record Open(int fd, SocketActivation configured, HeldSocket held) {

		HandedSocket handed() {
			return new HandedSocket(this.fd, this.held.fd() == 0);
		}

		// Why the backlog as configured, not as resolved: a default one follows the
		// kernel's somaxconn, which may change at run time, and a socket reopened for
		// that
		// would fail to bind while a rolling restart's old process still listens on it.
		private boolean sameSocket(SocketActivation activation, int port) {
			return this.configured.address().equals(activation.address()) && this.held.port() == port
					&& Objects.equals(this.configured.backlog(), activation.backlog());
		}

	}

}
