package dev.tether.supervisor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * What a child reports of itself, where a probe from outside cannot tell: systemd's
 * notify protocol, on a socket of its own ({@code NOTIFY_SOCKET}). See
 * {@code docs/notify.md}.
 *
 * @param notifyReady {@code readiness.notify}: it stays {@code STARTING} until it sends
 * {@code READY=1} (within {@code startup-timeout}, which {@code EXTEND_TIMEOUT_USEC=}
 * extends), and a reload waits for its next {@code READY=1}
 * @param watchdog {@code liveness.watchdog}: once {@code RUNNING} it must send
 * {@code WATCHDOG=1} at least this often, else it is restarted; {@code null} for none
 */
public record SelfReport(boolean notifyReady, @Nullable Duration watchdog) {

	/** Nothing reported: readiness and liveness are judged from outside only. */
	public static final SelfReport NONE = new SelfReport(false, null);

	/** The shortest watchdog: a tick must be able to see it. */
	static final Duration MIN_WATCHDOG = Duration.ofMillis(100);

	/** Whether the child gets a notify socket. */
	public boolean socket() {
		return this.notifyReady || this.watchdog != null;
	}

	/** Checks the values of child {@code name}. */
	void check(String name) {
		if (this.watchdog != null) {
			ChildSpecChecks.bounded(name, "liveness.watchdog", this.watchdog);
			if (this.watchdog.compareTo(MIN_WATCHDOG) < 0) {
				throw new InvalidChildSpecException(name, "liveness.watchdog",
						"must be at least " + MIN_WATCHDOG.toMillis() + "ms (was " + this.watchdog + ")");
			}
		}
	}

}
