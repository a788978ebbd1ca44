package dev.tether.supervisor.boot;

import org.jspecify.annotations.Nullable;

/**
 * Socket activation, {@code supervisor.children.<name>.socket-activation.*} and
 * {@code supervisor.defaults.socket-activation.*}: the application listens on the child's
 * port itself and hands the socket to each of the child's processes, so that a client
 * connecting while one process gives way to the next waits instead of being refused.
 * Every setting is {@code null} unless set.
 */
public class ChildSocketActivationProperties {

	/**
	 * Whether the application binds and listens on the child's 'port' and hands the
	 * socket to each of its processes. Needs 'port'. Defaults to false.
	 */
	private @Nullable Boolean enabled;

	/**
	 * IP address the socket is bound to: 127.0.0.1, 0.0.0.0, :: or any address of this
	 * host, written as an IP address (never a host name). Defaults to 127.0.0.1.
	 */
	private @Nullable String address;

	/**
	 * How many connections may wait to be accepted (1 to 65535, capped by the kernel's
	 * net.core.somaxconn). Defaults to net.core.somaxconn.
	 */
	private @Nullable Integer backlog;

	/**
	 * Descriptor the child finds the socket at: 3, with LISTEN_FDS, LISTEN_PID and
	 * LISTEN_FDNAMES (systemd's convention), or 0, its standard input (inetd,
	 * System.inheritedChannel()); 0 not for a stdio child. Defaults to 3.
	 */
	private @Nullable Integer fd;

	public @Nullable Boolean getEnabled() {
		return this.enabled;
	}

	public void setEnabled(@Nullable Boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getAddress() {
		return this.address;
	}

	public void setAddress(@Nullable String address) {
		this.address = address;
	}

	public @Nullable Integer getBacklog() {
		return this.backlog;
	}

	public void setBacklog(@Nullable Integer backlog) {
		this.backlog = backlog;
	}

	public @Nullable Integer getFd() {
		return this.fd;
	}

	public void setFd(@Nullable Integer fd) {
		this.fd = fd;
	}

}
