package dev.tether.supervisor.internal.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import jnr.constants.platform.AddressFamily;
import jnr.constants.platform.Errno;
import jnr.constants.platform.Sock;
import jnr.constants.platform.SocketControlMessage;
import jnr.constants.platform.SocketLevel;
import jnr.constants.platform.SocketMessage;
import jnr.constants.platform.SocketOption;
import org.jspecify.annotations.Nullable;

/**
 * Datagram sockets that tell who sent each datagram: an abstract {@code AF_UNIX} name
 * with {@code SO_PASSCRED}, read by {@code recvmsg} with room for the sender's
 * {@code SCM_CREDENTIALS} only. The notify protocol's sockets are these; the kernel, not
 * the sender, vouches for the pid and uid.
 */
public final class CredentialSockets {

	private static final int EINTR = Errno.EINTR.intValue();

	private static final int AF_UNIX = AddressFamily.AF_UNIX.intValue();

	private static final int SOCK_DGRAM = Sock.SOCK_DGRAM.intValue();

	private static final int SOL_SOCKET = SocketLevel.SOL_SOCKET.intValue();

	private static final int SO_PASSCRED = SocketOption.SO_PASSCRED.intValue();

	private static final int SCM_CREDENTIALS = SocketControlMessage.SCM_CREDENTIALS.intValue();

	private static final int MSG_DONTWAIT = SocketMessage.MSG_DONTWAIT.intValue();

	private static final int MSG_TRUNC = SocketMessage.MSG_TRUNC.intValue();

	private static final int MSG_CMSG_CLOEXEC = 0x40000000;

	// Why: sun_path is 108 bytes on Linux, the leading NUL of an abstract name included.
	private static final int SUN_PATH_LENGTH = 108;

	private static final int ADDRESS_SIZE = "32".equals(System.getProperty("sun.arch.data.model")) ? 4 : 8;

	// Why: struct cmsghdr is a size_t and two ints, its data aligned to a size_t.
	private static final int CMSG_HEADER = (ADDRESS_SIZE == 8) ? 16 : 12;

	// Why exactly CMSG_SPACE(sizeof(struct ucred)): no room is left for SCM_RIGHTS, so
	// descriptors a sender passes are closed by the kernel instead of landing here.
	private static final int CREDENTIALS_SPACE = CMSG_HEADER + ((12 + ADDRESS_SIZE - 1) / ADDRESS_SIZE) * ADDRESS_SIZE;

	private final Posix posix;

	/**
	 * Sockets opened and read through the given native layer.
	 * @param posix an available native layer ({@link Posix#isAvailable()})
	 */
	public CredentialSockets(Posix posix) {
		this.posix = posix;
	}

	/**
	 * Opens a datagram socket bound to an abstract {@code AF_UNIX} name (no file: nothing
	 * is left behind by a JVM that dies), non-blocking and close-on-exec, that receives
	 * each sender's credentials ({@code SO_PASSCRED}): the kernel attaches them to every
	 * datagram, and only a privileged sender can make them lie.
	 * @param name the name, without the leading NUL
	 * @return the descriptor
	 * @throws IOException naming the call and its errno ({@code EADDRINUSE}: the name is
	 * taken)
	 */
	public int open(String name) throws IOException {
		byte[] path = name.getBytes(StandardCharsets.UTF_8);
		if (path.length + 1 > SUN_PATH_LENGTH) {
			throw new IOException("socket name '" + name + "' is longer than " + (SUN_PATH_LENGTH - 1) + " bytes");
		}
		int fd = this.posix.calls().socket(AF_UNIX, SOCK_DGRAM | Posix.O_NONBLOCK | Posix.O_CLOEXEC, 0);
		if (fd < 0) {
			throw new IOException("socket(AF_UNIX, SOCK_DGRAM): " + this.posix.describe(-fd));
		}
		ByteBuffer address = ByteBuffer.allocate(Short.BYTES + 1 + path.length).order(ByteOrder.nativeOrder());
		address.putShort((short) AF_UNIX).put((byte) 0).put(path);
		int error = this.posix.calls().bind(fd, address.array());
		String failed = (error != 0) ? "bind(@" + name + ")"
				: ((error = this.posix.calls().setsockopt(fd, SOL_SOCKET, SO_PASSCRED, 1)) != 0)
						? "setsockopt(SO_PASSCRED)" : null;
		if (failed != null) {
			this.posix.calls().close(fd);
			throw new IOException(failed + ": " + this.posix.describe(error));
		}
		return fd;
	}

	/**
	 * Receives one datagram from a {@link #open} without waiting. Descriptors sent along
	 * are never installed: the room for control messages fits the credentials only, and
	 * the kernel closes what does not fit.
	 * @param data receives the datagram (a longer one is cut, and reported so)
	 * @return the datagram, or {@code null} when none is waiting (or the socket failed)
	 */
	public @Nullable Datagram receive(int fd, byte[] data) {
		byte[] control = new byte[CREDENTIALS_SPACE];
		int[] received = new int[2];
		int read;
		do {
			read = this.posix.calls().recvmsg(fd, data, control, MSG_DONTWAIT | MSG_CMSG_CLOEXEC, received);
		}
		while (read == -EINTR);
		if (read < 0) {
			return null;
		}
		ByteBuffer messages = ByteBuffer.wrap(control, 0, received[0]).order(ByteOrder.nativeOrder());
		long pid = -1;
		long uid = -1;
		if (messages.remaining() >= CMSG_HEADER + 12) {
			long length = (Long.BYTES == ADDRESS_SIZE) ? messages.getLong() : messages.getInt();
			int level = messages.getInt();
			int type = messages.getInt();
			if (length >= CMSG_HEADER + 12 && level == SOL_SOCKET && type == SCM_CREDENTIALS) {
				pid = Integer.toUnsignedLong(messages.getInt(CMSG_HEADER));
				uid = Integer.toUnsignedLong(messages.getInt(CMSG_HEADER + 4));
			}
		}
		return new Datagram(Math.min(read, data.length), (received[1] & MSG_TRUNC) != 0, pid, uid);
	}

	/**
	 * One datagram {@link CredentialSockets#receive} took.
	 *
	 * @param length its bytes in the buffer
	 * @param truncated whether it was longer than the buffer
	 * @param pid its sender's pid, or -1 when the kernel gave no credentials
	 * @param uid its sender's uid, or -1 likewise
	 */
	public record Datagram(int length, boolean truncated, long pid, long uid) {
	}

}
