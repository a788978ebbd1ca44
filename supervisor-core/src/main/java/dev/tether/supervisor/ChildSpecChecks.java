package dev.tether.supervisor;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.output.LogSettings;

/**
 * The checks of a {@link ChildSpec}'s settings that take more than a line, each throwing
 * an {@link InvalidChildSpecException} that names the setting and the allowed values.
 */
final class ChildSpecChecks {

	private static final Pattern IPV4 = Pattern
		.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

	private ChildSpecChecks() {
	}

	static void log(String name, LogSettings log) {
		Objects.requireNonNull(log, "log");
		Objects.requireNonNull(log.stderrLevel(), "log.stderr-level");
		if (log.maxLineLength() < ChildSpec.MIN_LINE_LENGTH || log.maxLineLength() > ChildSpec.MAX_LINE_LENGTH) {
			throw new InvalidChildSpecException(name, "log.max-line-length",
					"must be between " + ChildSpec.MIN_LINE_LENGTH + " bytes and " + ChildSpec.MAX_LINE_LENGTH
							+ " bytes (was " + log.maxLineLength() + ")");
		}
		if (log.maxSize() < log.maxLineLength()) {
			throw new InvalidChildSpecException(name, "log.max-size", "(" + log.maxSize()
					+ " bytes) must not be smaller than log.max-line-length (" + log.maxLineLength() + " bytes)");
		}
		if (log.maxHistory() < 0 || log.maxHistory() > ChildSpec.MAX_LOG_HISTORY) {
			throw new InvalidChildSpecException(name, "log.max-history",
					"must be between 0 and " + ChildSpec.MAX_LOG_HISTORY + " (was " + log.maxHistory() + ")");
		}
	}

	/**
	 * A probe address must be a loopback address, written as one. Why written as one: a
	 * name would be looked up, and could resolve anywhere.
	 */
	static void probeAddress(String name, String address) {
		InetAddress literal = ipAddress(address);
		if (literal != null && literal.isLoopbackAddress()) {
			return;
		}
		throw new InvalidChildSpecException(name, "probe-address",
				"must be a loopback IP address such as 127.0.0.1 (the default) or ::1 (was '" + address + "')");
	}

	/**
	 * {@code address} parsed when it is written as an IP address, else {@code null}. Why
	 * no lookup here: an IPv4 literal of four octets, or anything with a colon (an IPv6
	 * literal or an error), is parsed, never resolved.
	 */
	static @Nullable InetAddress ipAddress(@Nullable String address) {
		if (address == null || !(IPV4.matcher(address).matches() || address.contains(":"))) {
			return null;
		}
		try {
			return InetAddress.getByName(address);
		}
		catch (UnknownHostException ex) {
			return null;
		}
	}

	/**
	 * A rolling restart needs socket activation (both processes accept from one socket)
	 * and a readiness the new process itself shows: the socket always accepts, and a
	 * probe through it may be answered by the old process.
	 */
	static void restartMode(String name, RestartMode mode, SocketActivation activation, SelfReport selfReport,
			ProbeSettings readiness, boolean stdio, boolean startupDelay) {
		if (mode != RestartMode.ROLLING) {
			return;
		}
		if (stdio) {
			throw new InvalidChildSpecException(name, "restart-mode",
					"rolling cannot be used by a stdio child: its pipes to this JVM belong to one process at a time");
		}
		if (!activation.enabled()) {
			throw new InvalidChildSpecException(name, "restart-mode",
					"rolling needs socket-activation.enabled: the old and the new process share its socket");
		}
		if (!selfReport.readiness() && !startupDelay) {
			throw new InvalidChildSpecException(name, "restart-mode", "rolling needs a readiness the new process "
					+ "shows itself (readiness.notify or readiness.log-line) or a startup-delay: the held socket "
					+ "always accepts, and the old process, which accepts from it too, would answer a port or "
					+ "http-get probe");
		}
	}

	/**
	 * A startup delay is one way of saying when the child is ready: not beside another,
	 * and shorter than the startup timeout, which would otherwise end every start first.
	 */
	static void startupDelay(String name, @Nullable Duration delay, Duration startupTimeout, SelfReport selfReport,
			ProbeSettings readiness) {
		if (delay == null) {
			return;
		}
		bounded(name, "startup-delay", delay);
		if (delay.compareTo(startupTimeout) >= 0) {
			throw new InvalidChildSpecException(name, "startup-delay",
					"(" + delay + ") must be shorter than startup-timeout (" + startupTimeout
							+ "), which would end the start first");
		}
		if (selfReport.readiness() || readiness.httpGet() != null) {
			throw new InvalidChildSpecException(name, "startup-delay", "is another way to say when the child is "
					+ "ready: set it or readiness.notify, readiness.log-line or readiness.http-get, not both");
		}
	}

	static void bounded(String name, String setting, Duration value) {
		if (value == null || value.isNegative() || value.isZero() || value.compareTo(ChildSpec.MAX_DURATION) > 0) {
			throw new InvalidChildSpecException(name, setting, "must be a positive duration of at most "
					+ ChildSpec.MAX_DURATION.toDays() + " days (was " + value + ")");
		}
	}

	static void environment(String name, Map<String, String> environment) {
		Objects.requireNonNull(environment, "environment");
		environment.forEach((key, value) -> {
			if (key == null || key.isEmpty()) {
				throw new InvalidChildSpecException(name, "environment", "must not have an empty key");
			}
			String setting = ChildSpec.environmentSetting(key);
			if (key.indexOf('=') >= 0) {
				throw new InvalidChildSpecException(name, setting,
						"is not a valid variable name: it contains '=', which would end the name");
			}
			if (key.indexOf('\0') >= 0) {
				throw new InvalidChildSpecException(name, setting, "is not a valid variable name: it contains NUL");
			}
			if (key.startsWith(ChildSpec.RESERVED_ENVIRONMENT_PREFIX)) {
				throw new InvalidChildSpecException(name, setting, "cannot be set: "
						+ ChildSpec.RESERVED_ENVIRONMENT_PREFIX + "* variables are the supervisor's identity markers");
			}
			if (value == null) {
				throw new InvalidChildSpecException(name, setting, "must have a value");
			}
			if (value.indexOf('\0') >= 0) {
				throw new InvalidChildSpecException(name, setting,
						"has a value containing NUL, which a process environment cannot carry");
			}
		});
	}

	/** The most failures in a row a liveness probe may wait for. */
	static final int MAX_FAILURE_THRESHOLD = 1000;

	static void probe(String name, String which, ProbeSettings probe, @Nullable Integer port) {
		Objects.requireNonNull(probe, which);
		String path = probe.httpGet();
		if (path != null && (!path.startsWith("/") || !path.chars().allMatch((c) -> c > ' ' && c < 127))) {
			throw new InvalidChildSpecException(name, which + ".http-get",
					"must be a path starting with '/', without spaces or control characters (was '" + path + "')");
		}
		if (probe.tcp() && "readiness".equals(which)) {
			throw new InvalidChildSpecException(name, which + ".tcp",
					"is not needed: readiness without http-get already waits for the port to accept");
		}
		if (path != null && probe.tcp()) {
			throw new InvalidChildSpecException(name, which + ".tcp", "cannot be set with " + which + ".http-get");
		}
		if (probe.enabled() && port == null) {
			throw new InvalidChildSpecException(name, which + "." + ((path != null) ? "http-get" : "tcp"),
					"needs the child's port to be set");
		}
		bounded(name, which + ".period", probe.period());
		bounded(name, which + ".timeout", probe.timeout());
		if (probe.failureThreshold() < 1 || probe.failureThreshold() > MAX_FAILURE_THRESHOLD) {
			throw new InvalidChildSpecException(name, which + ".failure-threshold",
					"must be between 1 and " + MAX_FAILURE_THRESHOLD + " (was " + probe.failureThreshold() + ")");
		}
	}

}
