package dev.tether.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One way of starting a process, as the benchmark drives it.
 */
interface Subject extends AutoCloseable {

	String name();

	/**
	 * Starts the command; the returned future completes with {@link System#nanoTime()}
	 * when the exit is reported.
	 */
	Started start(List<String> command) throws Exception;

	/**
	 * Starts the command {@code n} times back to back, then ends them all and waits for
	 * their exits; the nanoseconds the starts took.
	 */
	default long timeStarts(List<String> command, int n) throws Exception {
		List<Started> started = new ArrayList<>(n);
		long from = System.nanoTime();
		for (int i = 0; i < n; i++) {
			started.add(start(command));
		}
		long nanos = System.nanoTime() - from;
		Benchmarks.killAll(started);
		return nanos;
	}

	@Override
	default void close() {
	}

	/**
	 * A started process.
	 *
	 * @param pid its pid
	 * @param exitedAt completes with the time the library reported its exit
	 * @param killSignal what ends it with everything it started: SIGKILL, or a shepherd's
	 * kill-tree request
	 */
	record Started(long pid, CompletableFuture<Long> exitedAt, int killSignal) {

		static final int SIGKILL = 9;

		Started(long pid, CompletableFuture<Long> exitedAt) {
			this(pid, exitedAt, SIGKILL);
		}

	}

}
