package dev.tether.supervisor.internal.stop;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.os.Posix;

/**
 * One stop in progress: the stop signal was sent; {@link #advance(long)} sends SIGKILL
 * once the timeout has passed and gives up after a grace. It never waits: whoever owns
 * the stop advances it (the supervision tick, or {@link StopLadder#run} for processes
 * that are not our children).
 * <p>
 * Why synchronized: a caller blocked in {@code Supervisor.stop} and the tick may advance
 * the same stop; the monitor is held only for a signal and a {@code /proc} read, never
 * while waiting.
 */
public final class Stop {

	/**
	 * How long a process may take to end after SIGKILL before the stop gives up on it.
	 */
	public static final Duration KILL_GRACE = Duration.ofSeconds(5);

	private final StopTarget target;

	private final long killAtNanos;

	private long giveUpAtNanos;

	private boolean killSent;

	private boolean killedHarder;

	private @Nullable StopOutcome outcome;

	Stop(StopTarget target, long killAtNanos, @Nullable StopOutcome outcome) {
		this.target = target;
		this.killAtNanos = killAtNanos;
		this.outcome = outcome;
	}

	/**
	 * Moves the stop on at {@code nowNanos}: notices the end of the process, sends
	 * SIGKILL to its group when the stop timeout has passed, gives up when it outlived
	 * the kill grace.
	 * @return the outcome once the stop is over, else {@code null}
	 */
	public synchronized @Nullable StopOutcome advance(long nowNanos) {
		if (this.outcome != null) {
			return this.outcome;
		}
		if (this.target.hasEnded()) {
			return ended();
		}
		if (!this.killSent && nowNanos - this.killAtNanos >= 0) {
			this.killSent = true;
			this.giveUpAtNanos = nowNanos + KILL_GRACE.toNanos();
			Verdict verdict = this.target.signal(Posix.SIGKILL);
			if (verdict == Verdict.NOT_OURS || verdict == Verdict.UNVERIFIABLE) {
				this.outcome = StopOutcome.NOT_OURS;
			}
		}
		else if (this.killSent && nowNanos - this.giveUpAtNanos >= 0) {
			if (!this.killedHarder && this.target.killHarder()) {
				this.killedHarder = true;
				this.giveUpAtNanos = nowNanos + KILL_GRACE.toNanos();
			}
			else {
				this.outcome = StopOutcome.SURVIVED;
			}
		}
		return this.outcome;
	}

	/**
	 * Records that the process ended, as its owner observed it (the reaped exit of our
	 * child).
	 * @return {@code KILLED} when SIGKILL had been sent, else {@code EXITED}; an outcome
	 * already reached stays
	 */
	public synchronized StopOutcome ended() {
		if (this.outcome == null) {
			this.outcome = this.killSent ? StopOutcome.KILLED : StopOutcome.EXITED;
		}
		return this.outcome;
	}

	/** The outcome, once the stop is over. */
	public synchronized @Nullable StopOutcome outcome() {
		return this.outcome;
	}

}
