package dev.tether.supervisor.internal.os;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import jnr.constants.platform.AddressFamily;
import jnr.constants.platform.Sock;
import jnr.constants.platform.SocketLevel;
import jnr.constants.platform.SocketOption;

/**
 * TCP sockets bound and listening for socket activation: the supervisor opens one per
 * child and hands it to each of the child's processes, so connections wait in its backlog
 * while one process gives way to the next. Why native and not a
 * {@code ServerSocketChannel}: the spawn needs the descriptor's number, which the JDK
 * keeps to itself.
 */
public final class ActivationSockets {

	/**
	 * The lowest descriptor a socket is kept at. Why: the spawn moves it to 3, 4 or 5 of
	 * the child; a socket already at that number would keep its close-on-exec flag, since
	 * a copy onto itself clears nothing.
	 */
	static final int LOWEST_DESCRIPTOR = 10;

	private static final int F_DUPFD_CLOEXEC = 1030;

	private static final int SOCK_STREAM = Sock.SOCK_STREAM.intValue();

	private static final int SOL_SOCKET = SocketLevel.SOL_SOCKET.intValue();

	private static final int SO_REUSEADDR = SocketOption.SO_REUSEADDR.intValue();

	private final Posix posix;

	/**
	 * Sockets opened through the given native layer.
	 * @param posix an available native layer ({@link Posix#isAvailable()})
	 */
	public ActivationSockets(Posix posix) {
		this.posix = posix;
	}

	/**
	 * Opens a TCP socket on {@code address} and {@code port}, with {@code SO_REUSEADDR}
	 * (connections of an earlier run in {@code TIME_WAIT} do not keep it from binding),
	 * listening, close-on-exec, at a descriptor of at least {@value #LOWEST_DESCRIPTOR}.
	 * @return the descriptor
	 * @throws IOException naming the call, the address and port, and the errno
	 * ({@code EADDRINUSE}: something else listens there)
	 */
	public int open(InetAddress address, int port, int backlog) throws IOException {
		boolean v4 = address instanceof Inet4Address;
		int family = (v4 ? AddressFamily.AF_INET : AddressFamily.AF_INET6).intValue();
		String where = address.getHostAddress() + " port " + port;
		int created = this.posix.calls().socket(family, SOCK_STREAM | Posix.O_CLOEXEC, 0);
		if (created < 0) {
			throw new IOException("socket(" + (v4 ? "AF_INET" : "AF_INET6") + "): " + this.posix.describe(-created));
		}
		int fd = this.posix.calls().fcntl(created, F_DUPFD_CLOEXEC, LOWEST_DESCRIPTOR);
		this.posix.calls().close(created);
		if (fd < 0) {
			throw new IOException("fcntl(F_DUPFD_CLOEXEC): " + this.posix.describe(-fd));
		}
		int error = this.posix.calls().setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1);
		String failed = (error != 0) ? "setsockopt(SO_REUSEADDR)"
				: ((error = this.posix.calls().bind(fd, socketAddress(family, address, port))) != 0)
						? "bind(" + where + ")"
						: ((error = this.posix.calls().listen(fd, backlog)) != 0) ? "listen(" + where + ")" : null;
		if (failed != null) {
			this.posix.calls().close(fd);
			throw new IOException(failed + ": " + this.posix.describe(error));
		}
		return fd;
	}

	/** Closes a socket {@link #open} returned. */
	public void close(int fd) {
		this.posix.calls().close(fd);
	}

	// Why by hand: struct sockaddr_in is the family (host order), the port (network
	// order), the address and 8 bytes of zeros; sockaddr_in6 the family, the port, the
	// flow label, the address and the scope id.
	private static byte[] socketAddress(int family, InetAddress address, int port) {
		byte[] bytes = address.getAddress();
		boolean v4 = bytes.length == 4;
		ByteBuffer sockaddr = ByteBuffer.allocate(v4 ? 16 : 28).order(ByteOrder.nativeOrder());
		sockaddr.putShort((short) family);
		sockaddr.order(ByteOrder.BIG_ENDIAN).putShort((short) port);
		if (!v4) {
			sockaddr.putInt(0);
		}
		sockaddr.put(bytes);
		return sockaddr.array();
	}

}
