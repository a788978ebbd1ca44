package dev.tether.supervisor;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What a child's current process said over its notify socket ({@link SelfReport}).
 *
 * @param phase where it says it stands
 * @param statusText its last {@code STATUS=}, cut at {@link #MAX_STATUS_LENGTH}
 * characters, control characters escaped ({@code \x0a}), or {@code null}
 * @param lastWatchdog when its last {@code WATCHDOG=1} came, or {@code null}
 * @param ignoredDatagrams datagrams dropped: from a process outside its tree or of
 * another user, or too long
 */
public record NotifyStatus(Phase phase, @Nullable String statusText, @Nullable Instant lastWatchdog,
		long ignoredDatagrams) {

	/** The longest {@code STATUS=} kept, in characters. */
	public static final int MAX_STATUS_LENGTH = 256;

	/** Where a child says it stands. */
	public enum Phase {

		/** Nothing said yet: it has not sent {@code READY=1}. */
		STARTING,

		/** {@code READY=1}: ready, or done reloading. */
		READY,

		/** {@code RELOADING=1}, or a reload was asked: waiting for {@code READY=1}. */
		RELOADING,

		/** {@code STOPPING=1}: it is shutting down by itself. */
		STOPPING

	}

}
