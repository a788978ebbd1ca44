package dev.tether.supervisor;

import java.time.Duration;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.output.LogSettings;

/**
 * What a child reports of itself, where a probe from outside cannot tell: systemd's
 * notify protocol, on a socket of its own ({@code NOTIFY_SOCKET}), and a line of its
 * output. See {@code docs/notify.md}.
 *
 * @param notifyReady {@code readiness.notify}: it stays {@code STARTING} until it sends
 * {@code READY=1} (within {@code startup-timeout}, which {@code EXTEND_TIMEOUT_USEC=}
 * extends), and a reload waits for its next {@code READY=1}
 * @param watchdog {@code liveness.watchdog}: once {@code RUNNING} it must send
 * {@code WATCHDOG=1} at least this often, else it is restarted; {@code null} for none
 * @param logLine {@code readiness.log-line}: it stays {@code STARTING} until a line of
 * its output matches this regular expression (within {@code startup-timeout});
 * {@code null} for none
 */
public record SelfReport(boolean notifyReady, @Nullable Duration watchdog, @Nullable String logLine) {

	/** Nothing reported: readiness and liveness are judged from outside only. */
	public static final SelfReport NONE = new SelfReport(false, null, null);

	/** The shortest watchdog: a tick must be able to see it. */
	static final Duration MIN_WATCHDOG = Duration.ofMillis(100);

	/** Whether the child gets a notify socket. */
	public boolean socket() {
		return this.notifyReady || this.watchdog != null;
	}

	/** Whether the child itself says when it is ready (not its port). */
	public boolean readiness() {
		return this.notifyReady || this.logLine != null;
	}

	/** {@link #logLine()} compiled, or {@code null}. */
	public @Nullable Pattern logLinePattern() {
		return (this.logLine != null) ? Pattern.compile(this.logLine) : null;
	}

	/** Checks the values of child {@code name}, whose output goes by {@code log}. */
	void check(String name, LogSettings log) {
		if (this.logLine != null) {
			if (this.notifyReady) {
				throw new InvalidChildSpecException(name, "readiness.log-line",
						"is another way to say READY=1: set it or readiness.notify, not both");
			}
			if (!log.fileEnabled() && !log.logger()) {
				throw new InvalidChildSpecException(name, "readiness.log-line",
						"needs the child's output, which goes nowhere with log.file-enabled and log.logger off");
			}
			try {
				Pattern.compile(this.logLine);
			}
			catch (PatternSyntaxException ex) {
				throw new InvalidChildSpecException(name, "readiness.log-line",
						"is not a regular expression: " + ex.getDescription() + " near index " + ex.getIndex());
			}
		}
		if (this.watchdog != null) {
			ChildSpecChecks.bounded(name, "liveness.watchdog", this.watchdog);
			if (this.watchdog.compareTo(MIN_WATCHDOG) < 0) {
				throw new InvalidChildSpecException(name, "liveness.watchdog",
						"must be at least " + MIN_WATCHDOG.toMillis() + "ms (was " + this.watchdog + ")");
			}
		}
	}

}
