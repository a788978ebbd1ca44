package dev.tether.supervisor.internal.notify;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.NotifyStatus;
import dev.tether.supervisor.NotifyStatus.Phase;

/**
 * The notify socket of one process of a child, and what that process said on it. Opened
 * by {@link NotifyPoller#open} before the spawn (its name goes into the environment),
 * received on once the process is known ({@link NotifyPoller#attach}). Written by the
 * poller's thread, read by the tick and by snapshots; guarded by this.
 */
public final class NotifyChannel {

	private final String child;

	private final int fd;

	private final String name;

	private long root;

	private boolean shepherd;

	private Phase phase = Phase.STARTING;

	private long phaseSinceNanos;

	private @Nullable String status;

	private long lastBeatNanos;

	private @Nullable Instant lastBeat;

	private long extendedUntilNanos;

	private boolean triggered;

	private boolean armed;

	private long armedNanos;

	private long ignored;

	NotifyChannel(String child, int fd, String name) {
		this.child = child;
		this.fd = fd;
		this.name = name;
	}

	/** The child this socket belongs to. */
	public String child() {
		return this.child;
	}

	int fd() {
		return this.fd;
	}

	/**
	 * What the child's environment gets: {@code NOTIFY_SOCKET} (an abstract name, written
	 * with a leading {@code @} as systemd writes it), and with a watchdog
	 * {@code WATCHDOG_USEC}.
	 */
	public Map<String, String> environment(@Nullable Duration watchdog) {
		String socket = "@" + this.name;
		return (watchdog != null)
				? Map.of("NOTIFY_SOCKET", socket, "WATCHDOG_USEC",
						Long.toString(TimeUnit.NANOSECONDS.toMicros(watchdog.toNanos())))
				: Map.of("NOTIFY_SOCKET", socket);
	}

	synchronized void attach(long root, boolean shepherd) {
		this.root = root;
		this.shepherd = shepherd;
	}

	synchronized long root() {
		return this.root;
	}

	synchronized boolean shepherd() {
		return this.shepherd;
	}

	synchronized void ignored() {
		this.ignored++;
	}

	/** Keeps what {@code message} says, received at {@code nowNanos}. */
	synchronized void received(NotifyMessage message, long nowNanos) {
		if (message.status() != null) {
			this.status = message.status();
		}
		if (message.watchdog()) {
			this.lastBeatNanos = nowNanos;
			this.lastBeat = Instant.now();
		}
		if (message.watchdogTrigger()) {
			this.triggered = true;
		}
		if (message.extendTimeoutMicros() >= 0) {
			this.extendedUntilNanos = nowNanos + Math.min(message.extendTimeoutMicros(), Long.MAX_VALUE / 4000) * 1000;
		}
		if (message.stopping()) {
			enter(Phase.STOPPING, nowNanos);
		}
		else if (message.reloading()) {
			enter(Phase.RELOADING, nowNanos);
		}
		else if (message.ready() && this.phase != Phase.STOPPING) {
			enter(Phase.READY, nowNanos);
		}
	}

	private void enter(Phase next, long nowNanos) {
		if (this.phase != next) {
			this.phase = next;
			this.phaseSinceNanos = nowNanos;
			// Why: an extension is granted to the wait in force, as systemd's is to the
			// current state.
			this.extendedUntilNanos = 0;
		}
	}

	/**
	 * A reload was asked: the child is {@code RELOADING} until its next {@code READY=1}.
	 */
	public synchronized void reloadAsked(long nowNanos) {
		enter(Phase.RELOADING, nowNanos);
	}

	/** Whether it has said {@code READY=1} (and not reloading or stopping since). */
	public synchronized boolean ready() {
		return this.phase == Phase.READY;
	}

	/**
	 * Whether it is reloading, or starting, past {@code timeoutNanos} counted from when
	 * that began ({@code startedNanos} for a start) and past any extension it asked for.
	 */
	public synchronized boolean waitOver(long startedNanos, long timeoutNanos, long nowNanos) {
		long since = (this.phase == Phase.RELOADING) ? this.phaseSinceNanos : startedNanos;
		return nowNanos - since >= timeoutNanos
				&& (this.extendedUntilNanos == 0 || nowNanos - this.extendedUntilNanos >= 0);
	}

	/** Whether it is {@code RELOADING}. */
	public synchronized boolean reloading() {
		return this.phase == Phase.RELOADING;
	}

	/**
	 * Whether its watchdog ran out: no {@code WATCHDOG=1} within {@code watchdogNanos} of
	 * the last, or of the first call (made when it is first seen {@code RUNNING}) if none
	 * came since; never while it is {@code STOPPING} by itself.
	 */
	public synchronized boolean watchdogMissed(long watchdogNanos, long nowNanos) {
		if (!this.armed) {
			this.armed = true;
			this.armedNanos = nowNanos;
		}
		if (this.phase == Phase.STOPPING) {
			return false;
		}
		long last = (this.lastBeat != null && this.lastBeatNanos - this.armedNanos > 0) ? this.lastBeatNanos
				: this.armedNanos;
		return nowNanos - last > watchdogNanos;
	}

	/** Whether it sent {@code WATCHDOG=trigger}; asked once. */
	public synchronized boolean takeTrigger() {
		boolean was = this.triggered;
		this.triggered = false;
		return was;
	}

	/** What it said, for its snapshot. */
	public synchronized NotifyStatus status() {
		return new NotifyStatus(this.phase, this.status, this.lastBeat, this.ignored);
	}

}
