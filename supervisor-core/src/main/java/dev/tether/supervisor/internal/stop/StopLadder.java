package dev.tether.supervisor.internal.stop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import dev.tether.supervisor.StopOutcome;
import dev.tether.supervisor.internal.identity.Verdict;
import dev.tether.supervisor.internal.os.Posix;

/**
 * The one stop ladder: the stop signal to the group, then SIGCONT (a stopped process
 * cannot act on its stop signal until it is continued, as systemd does), then, after the
 * stop timeout, SIGKILL to the group, then a grace for the end to be observed. Every stop
 * Tether makes goes through it: a child's stop, restart and close, orphans at
 * reconciliation, a port holder of ours and strays.
 */
public final class StopLadder {

	private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long AWAIT_POLL_MILLIS = 50;

	private StopLadder() {
	}

	/**
	 * Sends the stop signal (and SIGCONT) and returns the stop in progress, to be
	 * advanced by its owner.
	 * @param nowNanos the owner's clock, against which the timeout runs
	 */
	public static Stop begin(StopTarget target, int stopSignal, Duration timeout, long nowNanos) {
		Verdict verdict = target.signal(stopSignal);
		return switch (verdict) {
			case GONE -> new Stop(target, nowNanos, StopOutcome.EXITED);
			case NOT_OURS, UNVERIFIABLE -> new Stop(target, nowNanos, StopOutcome.NOT_OURS);
			case OURS -> {
				if (stopSignal != Posix.SIGKILL && stopSignal != Posix.SIGCONT) {
					target.signal(Posix.SIGCONT);
				}
				yield new Stop(target, nowNanos + timeout.toNanos(), null);
			}
		};
	}

	/**
	 * Stops processes that are not our children (their end is seen in {@code /proc}) and
	 * waits for every outcome. Blocks the caller: never call it holding a lock.
	 * @return one outcome per request, in order
	 */
	public static List<StopOutcome> run(List<Request> requests) {
		List<Stop> stops = new ArrayList<>(requests.size());
		for (Request request : requests) {
			stops.add(begin(request.target(), request.signal(), request.timeout(), System.nanoTime()));
		}
		List<StopOutcome> outcomes = new ArrayList<>(stops.size());
		for (Stop stop : stops) {
			StopOutcome outcome;
			while ((outcome = stop.advance(System.nanoTime())) == null) {
				// Why poll: a process that is not our child gives no exit event; /proc is
				// all there is.
				LockSupport.parkNanos(POLL_NANOS);
				stops.forEach((other) -> other.advance(System.nanoTime()));
			}
			outcomes.add(outcome);
		}
		return outcomes;
	}

	/**
	 * Waits for the outcome of stops that their owner advances, calling {@code advance}
	 * whenever it has not come within a poll interval. Blocks the caller: never call it
	 * holding a lock.
	 * @return the outcome; {@code SURVIVED} when the caller is interrupted first
	 */
	public static StopOutcome await(CompletableFuture<StopOutcome> outcome, Runnable advance) {
		while (true) {
			try {
				return outcome.get(AWAIT_POLL_MILLIS, TimeUnit.MILLISECONDS);
			}
			catch (TimeoutException ex) {
				advance.run();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return StopOutcome.SURVIVED;
			}
			catch (ExecutionException ex) {
				throw new IllegalStateException(ex.getCause());
			}
		}
	}

	/**
	 * A process to stop with its stop signal and timeout.
	 *
	 * @param target the process
	 * @param signal its stop signal
	 * @param timeout how long it may take before SIGKILL
	 */
	public record Request(StopTarget target, int signal, Duration timeout) {
	}

}
