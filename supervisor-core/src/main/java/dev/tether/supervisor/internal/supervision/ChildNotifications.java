package dev.tether.supervisor.internal.supervision;

import java.time.Duration;
import java.util.Map;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.internal.notify.NotifyChannel;
import dev.tether.supervisor.internal.notify.NotifyMessage;
import dev.tether.supervisor.internal.notify.NotifyPoller;
import dev.tether.supervisor.internal.output.LineWatch;

/**
 * What the notify protocol does to a child's state: {@code READY=1} makes a starting
 * child {@code RUNNING} at once, and {@code WATCHDOG=trigger} restarts it, both on the
 * poller's thread ({@link #notified}); the tick ends the waits that ran out
 * ({@link #check}): a start or a reload without {@code READY=1} within
 * {@code startup-timeout} (and any {@code EXTEND_TIMEOUT_USEC=}), and a watchdog without
 * {@code WATCHDOG=1}; and a child with {@code readiness.log-line} is {@code RUNNING} at
 * the first tick after its line came. A restart goes through
 * {@link SupervisedChild#checkFailed}, as a failed liveness probe's does: through the
 * stop ladder, counted by the breaker, the reason in lastError and the events.
 */
final class ChildNotifications implements NotifyPoller.Listener {

	private final ChildTable children;

	private final StopTargets targets;

	private final EventOutbox outbox;

	private final LongSupplier clock;

	ChildNotifications(ChildTable children, StopTargets targets, EventOutbox outbox, LongSupplier clock) {
		this.children = children;
		this.targets = targets;
		this.outbox = outbox;
		this.clock = clock;
	}

	@Override
	public void notified(NotifyChannel channel, NotifyMessage message) {
		synchronized (this.children) {
			SupervisedChild child = this.children.find(channel.child());
			ChildProcess process = (child != null) ? child.process() : null;
			if (child == null || process == null || process.notifyChannel() != channel) {
				return;
			}
			long now = this.clock.getAsLong();
			if (message.error() != null) {
				child.reported(process, message.error());
			}
			if (message.watchdogTrigger() && channel.takeTrigger()) {
				child.checkFailed(process, "watchdog: the child sent WATCHDOG=trigger", this.targets.of(child, process),
						now);
			}
			else if (message.ready() && channel.ready() && child.state() == ChildState.STARTING
					&& child.spec().selfReport().notifyReady()) {
				child.readinessChecked(process, true, "send READY=1", this.targets.of(child, process), now);
			}
		}
		this.outbox.dispatch();
	}

	/**
	 * Ends the waits of these children that ran out, and makes those whose line came
	 * {@code RUNNING}. Call it holding no lock; it takes the children's.
	 */
	void check(Map<SupervisedChild, ChildProcess> notified) {
		if (notified.isEmpty()) {
			return;
		}
		synchronized (this.children) {
			long now = this.clock.getAsLong();
			notified.forEach((child, process) -> {
				if (child.process() != process) {
					return;
				}
				LineWatch watch = process.lineWatch();
				NotifyChannel channel = process.notifyChannel();
				if (watch != null && child.state() == ChildState.STARTING) {
					// Why the timeout as a failed readiness: it kills the child as one
					// whose port never accepts.
					child.readinessChecked(process, watch.matched(), "print a line matching /" + watch.pattern() + "/",
							this.targets.of(child, process), now);
				}
				if (channel != null) {
					check(child, process, channel, now);
				}
			});
		}
	}

	private void check(SupervisedChild child, ChildProcess process, NotifyChannel channel, long now) {
		ChildSpec spec = child.spec();
		long startup = spec.startupTimeout().toNanos();
		ChildState state = child.state();
		if (state == ChildState.STARTING && spec.selfReport().notifyReady()) {
			if (channel.waitOver(process.startedNanos(), startup, now)) {
				child.readinessChecked(process, false, "send READY=1" + said(channel), this.targets.of(child, process),
						now);
			}
			return;
		}
		if (state != ChildState.RUNNING) {
			return;
		}
		if (spec.selfReport().notifyReady() && channel.reloading()
				&& channel.waitOver(process.startedNanos(), startup, now)) {
			child.checkFailed(process,
					"did not send READY=1 within " + spec.startupTimeout() + " of reloading" + said(channel),
					this.targets.of(child, process), now);
			return;
		}
		Duration watchdog = spec.selfReport().watchdog();
		if (watchdog != null && channel.watchdogMissed(watchdog.toNanos(), now)) {
			child.checkFailed(process, "watchdog: no WATCHDOG=1 for " + format(watchdog),
					this.targets.of(child, process), now);
		}
	}

	/** The child's last status, for a reason: {@code (status: loading model)}. */
	private static String said(NotifyChannel channel) {
		@Nullable String status = channel.status().statusText();
		return (status != null) ? " (status: " + status + ")" : "";
	}

	/** {@code 2s}, {@code 1500ms}, {@code 5m}: as a duration is written in properties. */
	static String format(Duration duration) {
		if (duration.toMillisPart() != 0 || duration.toNanosPart() % 1_000_000 != 0) {
			return duration.toMillis() + "ms";
		}
		long seconds = duration.toSeconds();
		return (seconds % 60 == 0 && seconds > 0) ? (seconds / 60) + "m" : seconds + "s";
	}

}
