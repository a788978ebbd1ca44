package dev.tether.supervisor.internal.output;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.internal.os.Epoll;
import dev.tether.supervisor.internal.os.NativeSpawnException;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Reads the output pipes of every child in the JVM. {@value #READERS} threads,
 * {@code supervisor-output-N}, wait on all of them at once (one epoll set, each pipe
 * reported to one thread once per readiness); the thread that is told reads that pipe
 * until it is empty (or has had its share), writes the lines to the child's sinks, and
 * only then has the pipe watched again. A thread whose turn found little (less than
 * {@value #LITTLE} bytes) rests for a millisecond before it waits again.
 * <p>
 * Why several threads: a sink may block (a slow appender, a stalled disk), and a blocked
 * sink must hold up only its own child, which then waits on its pipe; the other children
 * go on, up to {@value #READERS} blocked sinks at once, and exits are seen by the
 * reaper's own thread. Why the waiting threads are the readers: no hand-off, so a chunk
 * of output costs one wake-up. Why a fixed few: a thousand children cost no more threads
 * than one. Why the rest: children that each write a line now and then, many at once,
 * would otherwise cost a wake-up, a read, a write and a re-arm per line, a core's worth
 * of system calls at tens of thousands of lines a second, taken from the reaper and the
 * application; while the readers rest, the lines gather in the pipes and the next turns
 * take many at once. Output is then up to about a millisecond later, and a child that
 * writes fast is read in full chunks, with no rest.
 */
public final class OutputPump {

	private static final Logger logger = LoggerFactory.getLogger(OutputPump.class);

	private static final OutputPump SHARED = new OutputPump(Posix.get());

	private static final int READERS = 4;

	/** How far below the application's threads the readers run, in nice values. */
	private static final int READER_NICE_INCREMENT = 5;

	/** What a thread reads at once: a quarter of a grown pipe, two default ones. */
	private static final int CHUNK = PipeSizer.GROWN_CAPACITY / 4;

	/**
	 * Why a share: a child that writes without pause must not keep its thread from the
	 * others' pipes.
	 */
	private static final int CHUNKS_PER_TURN = 4;

	/** A turn that reads fewer bytes than this is followed by a rest. */
	private static final int LITTLE = 4096;

	private static final long REST_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private final Posix posix;

	private final Map<Integer, LineSplitter> captures = new ConcurrentHashMap<>();

	private final Object lock = new Object();

	private final PipeSizer sizer;

	private volatile @Nullable Epoll epoll;

	private boolean unavailable;

	OutputPump(Posix posix) {
		this.posix = posix;
		this.sizer = new PipeSizer(posix);
	}

	/** The JVM's pump. */
	public static OutputPump shared() {
		return SHARED;
	}

	/**
	 * Opens the pipes one process writes its output to: one for stdout and stderr
	 * together, or one each when the output tells them apart.
	 * @return the pipes, or {@code null} where there is no pump (no native binding or no
	 * epoll): the caller then appends the output to the file itself
	 * @throws NativeSpawnException when a pipe cannot be made (no descriptor left)
	 */
	public @Nullable Pipes open(ChildOutput output) throws NativeSpawnException {
		if (start() == null) {
			return null;
		}
		int[] stdout = this.posix.pipe();
		if (!output.separateStreams()) {
			return new Pipes(output, stdout, null, Stream.STDOUT);
		}
		try {
			return new Pipes(output, stdout, this.posix.pipe(), Stream.STDOUT);
		}
		catch (NativeSpawnException ex) {
			this.posix.close(stdout[0]);
			this.posix.close(stdout[1]);
			throw ex;
		}
	}

	/**
	 * Opens the one pipe a process writes its stderr to, for a process whose stdout is
	 * read by someone else (its stdout write end is then its stderr's).
	 * @return the pipe, or {@code null} where there is no pump
	 * @throws NativeSpawnException when the pipe cannot be made
	 */
	public @Nullable Pipes openStderr(ChildOutput output) throws NativeSpawnException {
		return (start() != null) ? new Pipes(output, this.posix.pipe(), null, Stream.STDERR) : null;
	}

	private @Nullable Epoll start() {
		synchronized (this.lock) {
			if (this.epoll != null || this.unavailable) {
				return this.epoll;
			}
			Epoll created = Epoll.create(this.posix);
			if (created == null) {
				this.unavailable = true;
				logger.warn("No epoll set can be made here; child output is appended to each child's file directly, "
						+ "without rotation or logger");
				return null;
			}
			this.epoll = created;
			for (int reader = 1; reader <= READERS; reader++) {
				daemon(() -> readReadyPipes(created), "supervisor-output-" + reader).start();
			}
			return created;
		}
	}

	private static Thread daemon(Runnable work, String name) {
		// Why a daemon: output must never keep the JVM alive.
		Thread thread = new Thread(work, name);
		thread.setDaemon(true);
		return thread;
	}

	private void readReadyPipes(Epoll epoll) {
		// Why a lower priority: children can write faster than a core reads, and the
		// pump's threads would then take the cores the reaper needs to see an exit in
		// time; a child whose pipe fills waits on its own write meanwhile.
		this.posix.lowerThisThreadsPriority(READER_NICE_INCREMENT);
		// Why little-endian: the newline search reads eight bytes at a time and wants the
		// first byte lowest.
		ByteBuffer buffer = ByteBuffer.allocateDirect(LineSplitter.HEADROOM + CHUNK).order(ByteOrder.LITTLE_ENDIAN);
		long[] words = new long[buffer.capacity() / Long.BYTES];
		while (true) {
			int ready = epoll.awaitOne(this.sizer.waitMillis());
			LineSplitter capture = (ready >= 0) ? this.captures.get(ready) : null;
			if (capture != null) {
				if (drain(epoll, capture, buffer, words) < LITTLE) {
					// Why a rest, outside any lock: see the class's note; the pipe is
					// watched again already, so another reader takes it if it fills.
					LockSupport.parkNanos(REST_NANOS);
				}
			}
			else {
				this.sizer.sweep();
			}
		}
	}

	/** Reads one turn of the pipe and delivers it; returns the bytes read. */
	private int drain(Epoll epoll, LineSplitter capture, ByteBuffer buffer, long[] words) {
		// Why a lock nobody contends: successive turns of one pipe may run on different
		// threads, and the lock makes each turn see what the previous one left (a line
		// carried over).
		int taken = 0;
		synchronized (capture) {
			for (int turn = 0; turn < CHUNKS_PER_TURN; turn++) {
				buffer.clear();
				capture.putCarry(buffer);
				int start = buffer.position();
				buffer.limit(start + CHUNK);
				int read = this.posix.read(capture.fd, buffer);
				if (read > 0) {
					taken += read;
					buffer.limit(start + read);
					long delivering = System.nanoTime();
					deliver(capture, () -> capture.accept(buffer, words));
					this.sizer.afterRead(capture.pipe, read, System.nanoTime() - delivering);
					if (read < CHUNK) {
						// Why no second read: a short read emptied the pipe; re-arming
						// (level-triggered) reports at once whatever came meanwhile, and
						// spares a read that would only say EAGAIN.
						rearm(epoll, capture, true);
						return taken;
					}
					continue;
				}
				if (read == -Posix.EAGAIN) {
					rearm(epoll, capture, true);
					return taken;
				}
				if (read < 0) {
					logger.warn("Output of child '{}' ends: reading its pipe failed with errno {}",
							capture.output.child(), -read);
				}
				end(capture);
				return taken;
			}
			rearm(epoll, capture, false);
		}
		return taken;
	}

	private void rearm(Epoll epoll, LineSplitter capture, boolean emptied) {
		this.sizer.left(capture.pipe, emptied);
		epoll.rearm(capture.fd);
	}

	private static void deliver(LineSplitter capture, Runnable delivery) {
		try {
			delivery.run();
		}
		catch (RuntimeException | LinkageError | StackOverflowError ex) {
			// Why: a sink's failure (an appender that throws, or that misses a class at
			// run time) must not end the child's output, nor the thread: a thread that
			// died in a turn would leave that pipe unread for good, and its child blocked
			// on its writes.
			logger.warn("Output of child '{}' could not be delivered", capture.output.child(), ex);
		}
	}

	private void end(LineSplitter capture) {
		this.captures.remove(capture.fd);
		this.sizer.ended(capture.pipe);
		deliver(capture, capture::finish);
		// Why after the removal: the number may be reused by the next pipe as soon as it
		// is closed.
		this.posix.close(capture.fd);
		capture.output.closed();
	}

	/**
	 * The pipes of one process. The write ends go to the spawn; {@link #attach()} then
	 * hands the read ends to the pump, or {@link #discard()} closes everything when the
	 * spawn failed.
	 */
	public final class Pipes {

		private final ChildOutput output;

		private final int[] stdout;

		private final int @Nullable [] stderr;

		/**
		 * What the first pipe carries: stdout (with stderr unless told apart), or stderr
		 * alone.
		 */
		private final Stream first;

		private final @Nullable LineWatch watch;

		Pipes(ChildOutput output, int[] stdout, int @Nullable [] stderr, Stream first) {
			this.output = output;
			this.stdout = stdout;
			this.stderr = stderr;
			this.first = first;
			this.watch = output.takeWatch();
		}

		/** The descriptor the child gets as its stdout. */
		public int stdoutWriteEnd() {
			return this.stdout[1];
		}

		/**
		 * The descriptor the child gets as its stderr: the stdout pipe itself unless the
		 * streams are told apart.
		 */
		public int stderrWriteEnd() {
			return (this.stderr != null) ? this.stderr[1] : this.stdout[1];
		}

		/**
		 * The read ends, stdout's first: the pump reads them; a shepherd may hold copies
		 * of them.
		 */
		public List<Integer> readEnds() {
			return (this.stderr != null) ? List.of(this.stdout[0], this.stderr[0]) : List.of(this.stdout[0]);
		}

		/**
		 * After a spawn: closes the JVM's write ends (so the pipes end with the child)
		 * and starts reading.
		 */
		public void attach() {
			posix.close(this.stdout[1]);
			watch(this.stdout[0], this.first);
			if (this.stderr != null) {
				posix.close(this.stderr[1]);
				watch(this.stderr[0], Stream.STDERR);
			}
		}

		private void watch(int fd, Stream stream) {
			LineSplitter capture = new LineSplitter(fd, stream, this.output, sizer.watch(fd), this.watch);
			this.output.opened();
			captures.put(fd, capture);
			Epoll current = epoll;
			if (current == null || !current.addOnce(fd)) {
				logger.warn("Output of child '{}' cannot be watched (epoll_ctl failed); it is dropped and the child's "
						+ "writes fail", this.output.child());
				end(capture);
			}
		}

		/** After a failed spawn: closes every end. */
		public void discard() {
			posix.close(this.stdout[0]);
			posix.close(this.stdout[1]);
			if (this.stderr != null) {
				posix.close(this.stderr[0]);
				posix.close(this.stderr[1]);
			}
		}

	}

}
