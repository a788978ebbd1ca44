package dev.tether.supervisor.internal.notify;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.NotifyStatus;

/**
 * One datagram of the notify protocol, read as systemd reads it: newline-separated
 * {@code KEY=VALUE} assignments, the last of a key winning; unknown keys and lines
 * without {@code =} are ignored.
 *
 * @param ready {@code READY=1}
 * @param reloading {@code RELOADING=1}
 * @param stopping {@code STOPPING=1}
 * @param status {@code STATUS=}, bounded and escaped, or {@code null}
 * @param watchdog {@code WATCHDOG=1}
 * @param watchdogTrigger {@code WATCHDOG=trigger}
 * @param extendTimeoutMicros {@code EXTEND_TIMEOUT_USEC=}, or -1
 * @param error what {@code ERRNO=} or {@code EXIT_STATUS=} reported, or {@code null}
 */
public record NotifyMessage(boolean ready, boolean reloading, boolean stopping, @Nullable String status,
		boolean watchdog, boolean watchdogTrigger, long extendTimeoutMicros, @Nullable String error) {

	/** Reads the first {@code length} bytes of {@code data} (UTF-8). */
	public static NotifyMessage parse(byte[] data, int length) {
		boolean ready = false;
		boolean reloading = false;
		boolean stopping = false;
		String status = null;
		boolean watchdog = false;
		boolean trigger = false;
		long extend = -1;
		String error = null;
		for (String line : new String(data, 0, length, StandardCharsets.UTF_8).split("\n")) {
			int equals = line.indexOf('=');
			if (equals <= 0) {
				continue;
			}
			String value = line.substring(equals + 1);
			switch (line.substring(0, equals)) {
				case "READY" -> ready = "1".equals(value);
				case "RELOADING" -> reloading = "1".equals(value);
				case "STOPPING" -> stopping = "1".equals(value);
				case "STATUS" -> status = escape(value);
				case "WATCHDOG" -> {
					watchdog = "1".equals(value);
					trigger = "trigger".equals(value);
				}
				case "EXTEND_TIMEOUT_USEC" -> extend = number(value);
				case "ERRNO" -> error = reported("ERRNO", value);
				case "EXIT_STATUS" -> error = reported("EXIT_STATUS", value);
				default -> {
					// Unknown assignments are ignored, as systemd ignores them.
				}
			}
		}
		return new NotifyMessage(ready, reloading, stopping, status, watchdog, trigger, extend, error);
	}

	/** Whether it asks for something beyond what the channel keeps. */
	boolean actionable() {
		return this.ready || this.watchdogTrigger || this.error != null;
	}

	private static long number(String value) {
		try {
			long parsed = Long.parseLong(value.strip());
			return (parsed >= 0) ? parsed : -1;
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private static @Nullable String reported(String key, String value) {
		long number = number(value);
		return (number >= 0) ? "the child reported " + key + "=" + number : null;
	}

	/**
	 * The text cut at {@link NotifyStatus#MAX_STATUS_LENGTH} characters, control
	 * characters written {@code \xNN}: a status is shown in logs, JSON and consoles.
	 */
	static String escape(String text) {
		StringBuilder escaped = new StringBuilder(Math.min(text.length(), NotifyStatus.MAX_STATUS_LENGTH));
		for (int i = 0; i < text.length() && escaped.length() < NotifyStatus.MAX_STATUS_LENGTH; i++) {
			char c = text.charAt(i);
			if (Character.isISOControl(c)) {
				escaped.append(String.format("\\x%02x", (int) c));
			}
			else {
				escaped.append(c);
			}
		}
		if (escaped.length() > NotifyStatus.MAX_STATUS_LENGTH) {
			escaped.setLength(NotifyStatus.MAX_STATUS_LENGTH);
		}
		return escaped.toString();
	}

}
