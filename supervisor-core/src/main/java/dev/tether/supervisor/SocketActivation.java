package dev.tether.supervisor;

import java.net.InetAddress;
import java.net.UnknownHostException;

import org.jspecify.annotations.Nullable;

/**
 * Socket activation: the supervisor binds and listens on the child's port itself, once,
 * and hands that socket to every process of the child, so that a client who connects
 * while one process gives way to the next waits in the socket's backlog instead of being
 * refused. See {@code docs/socket-activation.md}.
 *
 * @param enabled whether the child's port is the supervisor's socket
 * @param address the address the socket is bound to: {@value #DEFAULT_ADDRESS} by
 * default, {@code 0.0.0.0}, {@code ::} or any IP address of this host, written as one
 * @param backlog how many connections may wait to be accepted, or {@code null} for the
 * kernel's ceiling ({@code net.core.somaxconn})
 * @param fd where the child finds the socket: {@code 3}, systemd's convention, with
 * {@code LISTEN_FDS=1}, {@code LISTEN_PID} and {@code LISTEN_FDNAMES}; or {@code 0}, its
 * standard input, for {@code System.inheritedChannel()} and inetd-style servers
 */
public record SocketActivation(boolean enabled, String address, @Nullable Integer backlog, int fd) {

	/** The address a socket is bound to unless the child names another. */
	public static final String DEFAULT_ADDRESS = "127.0.0.1";

	/** No socket activation: the child binds its port itself. */
	public static final SocketActivation DISABLED = new SocketActivation(false, DEFAULT_ADDRESS, null, 3);

	/** The largest backlog accepted (the kernel caps it at {@code somaxconn} anyway). */
	static final int MAX_BACKLOG = 65535;

	/**
	 * The address, parsed. Why no lookup: the value is checked to be written as an IP
	 * address, so this never resolves a name.
	 */
	public InetAddress inetAddress() {
		try {
			return InetAddress.getByName(this.address);
		}
		catch (UnknownHostException ex) {
			throw new IllegalStateException("socket-activation.address '" + this.address + "' is not an address", ex);
		}
	}

	/** Checks the values of child {@code name}, which listens on {@code port}. */
	void check(String name, @Nullable Integer port, boolean stdio) {
		if (!this.enabled) {
			return;
		}
		if (port == null) {
			throw new InvalidChildSpecException(name, "socket-activation.enabled",
					"needs the child's port: it is the port the supervisor listens on");
		}
		if (ChildSpecChecks.ipAddress(this.address) == null) {
			throw new InvalidChildSpecException(name, "socket-activation.address",
					"must be an IP address such as 127.0.0.1 (the default), 0.0.0.0 or :: (was '" + this.address
							+ "')");
		}
		if (this.backlog != null && (this.backlog < 1 || this.backlog > MAX_BACKLOG)) {
			throw new InvalidChildSpecException(name, "socket-activation.backlog",
					"must be between 1 and " + MAX_BACKLOG + " (was " + this.backlog + ")");
		}
		if (this.fd != 0 && this.fd != 3) {
			throw new InvalidChildSpecException(name, "socket-activation.fd",
					"must be 3 (systemd's LISTEN_FDS convention) or 0 (standard input) (was " + this.fd + ")");
		}
		if (this.fd == 0 && stdio) {
			throw new InvalidChildSpecException(name, "socket-activation.fd",
					"cannot be 0 for a stdio child, whose standard input is the supervisor's pipe");
		}
	}

}
