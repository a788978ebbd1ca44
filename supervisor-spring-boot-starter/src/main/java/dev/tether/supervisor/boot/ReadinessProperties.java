package dev.tether.supervisor.boot;

import org.jspecify.annotations.Nullable;

/**
 * How a child is found ready, by its port or by what it says itself:
 * {@code supervisor.children.<name>.readiness.*} (and
 * {@code supervisor.defaults.readiness.*}). Every setting is {@code null} unless set.
 */
public class ReadinessProperties extends ProbeProperties {

	/**
	 * Whether the child says itself when it is ready, over systemd's notify protocol: it
	 * gets a socket of its own in NOTIFY_SOCKET and stays STARTING until it sends READY=1
	 * (within startup-timeout, which EXTEND_TIMEOUT_USEC extends); its STATUS= is shown.
	 * A port is then not probed for readiness.
	 */
	private @Nullable Boolean notify;

	/**
	 * Regular expression: the child is STARTING until a line of its stdout or stderr
	 * matches it (found anywhere in the line), within startup-timeout. For children that
	 * print "listening on ..." and speak no protocol. Not with notify.
	 */
	private @Nullable String logLine;

	public @Nullable Boolean getNotify() {
		return this.notify;
	}

	public void setNotify(@Nullable Boolean notify) {
		this.notify = notify;
	}

	public @Nullable String getLogLine() {
		return this.logLine;
	}

	public void setLogLine(@Nullable String logLine) {
		this.logLine = logLine;
	}

}
