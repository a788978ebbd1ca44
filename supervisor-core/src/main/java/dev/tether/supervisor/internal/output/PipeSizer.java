package dev.tether.supervisor.internal.output;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.tether.supervisor.internal.os.Posix;

/**
 * Sizes the pipes the pump reads. A pipe starts at the kernel's default; when four reads
 * in a row find it full and its lines went out quickly, its child is outrunning the pump,
 * and the pipe is grown to 512 KB; when a turn of the pump empties it and leaves it
 * holding no more than the default size, or it has gone unread for a second, the child
 * has fallen behind and the pipe gets that size back.
 * <p>
 * Why grow: a chunk of output costs a wake-up and a few system calls whatever its size,
 * and a child that can run ahead of its reader by more than one chunk keeps both busy at
 * once (measured when it was introduced: 1.4 times the bytes per second of a 64 KB pipe,
 * for a fifth less CPU per byte). Why 512 KB: what a child writes into a larger pipe has
 * left the CPU's caches by the time the pump reads it (measured side by side in the
 * throughput rows' harness when it was chosen: 1 MB gave 0.97 times its throughput, 4 MB
 * 0.7 times, 256 KB 0.8 times). Why not for a slow sink: the child waits on the sink
 * anyway, and a larger pipe would only hold more lines back. Why give the size back: pipe
 * buffers count against the user's {@code fs.pipe-user-pages-soft} (64 MB by default),
 * past which the kernel gives every new pipe of the user, the children's own included,
 * two pages; for the same reason at most {@value #GROWN_PIPES} pipes are grown at once in
 * the JVM.
 */
final class PipeSizer {

	/** The capacity a pipe is grown to. */
	static final int GROWN_CAPACITY = 512 * 1024;

	private static final int GROWN_PIPES = 16;

	private static final int FULL_READS_TO_GROW = 4;

	/**
	 * The slowest sink a grown pipe helps: 64 MB/s, a 64 KB chunk written out within a
	 * millisecond.
	 */
	private static final long FAST_SINK_BYTES_PER_SECOND = 64L * 1024 * 1024;

	/**
	 * Why wait after a refusal: the kernel refuses a user past its pipe allowance until
	 * its pipes shrink.
	 */
	private static final int FULL_READS_AFTER_REFUSAL = 1024;

	/** How long a grown pipe may go unread before the pump sizes it back. */
	private static final long IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);

	/**
	 * How often, at most, the pump looks for such pipes while some are grown and no pipe
	 * is ready.
	 */
	private static final int SWEEP_MILLIS = 500;

	private final Posix posix;

	// Why a count beside the set of grown pipes: a place under the cap is taken before
	// the pipe is resized (increment, then check), which the set's size cannot do
	// atomically between the pump's threads.
	private final AtomicInteger grownCount = new AtomicInteger();

	// Why a set of the grown pipes: a pipe whose child stopped right after it grew is not
	// read again, so other pipes' turns, or a wait that timed out, look at it (16 at
	// most) and size it back.
	private final Set<Pipe> grown = ConcurrentHashMap.newKeySet();

	PipeSizer(Posix posix) {
		this.posix = posix;
	}

	/** What is known of a pipe just handed to the pump. */
	Pipe watch(int fd) {
		return new Pipe(fd, this.posix.pipeCapacity(fd));
	}

	/**
	 * After a read, under the pipe's capture lock: grows the pipe once its child has kept
	 * it full.
	 * @param read the bytes the read returned
	 * @param deliveryNanos how long writing those bytes to the child's sinks took
	 */
	void afterRead(Pipe pipe, int read, long deliveryNanos) {
		pipe.lastReadNanos = System.nanoTime();
		if (pipe.grown) {
			return;
		}
		boolean full = pipe.defaultCapacity > 0 && read >= pipe.defaultCapacity
				&& deliveryNanos * FAST_SINK_BYTES_PER_SECOND <= read * 1_000_000_000L;
		// Why keep a negative count on a read that is not full: it is the wait after a
		// refusal.
		pipe.fullReads = full ? pipe.fullReads + 1 : Math.min(pipe.fullReads, 0);
		if (pipe.fullReads >= FULL_READS_TO_GROW) {
			grow(pipe);
		}
	}

	/**
	 * The pump is done with the pipe for this turn (under its capture lock): a grown pipe
	 * the turn emptied gets its default size back unless its child is still ahead, and so
	 * does any grown pipe left unread for a second. Why the kernel decides: it refuses
	 * (EBUSY) while a pipe holds more than the default size, that is while its child
	 * keeps ahead of the pump. Why not after a turn that ended with the pipe still full
	 * (its share taken): the kernel would refuse, and each refusal costs it an
	 * allocation. Not on the turn that grew it: the child has not had a moment to use the
	 * room yet.
	 * @param emptied whether the turn's last read found the pipe empty or took less than
	 * it asked for
	 */
	void left(Pipe pipe, boolean emptied) {
		if (pipe.justGrown) {
			pipe.justGrown = false;
		}
		else if (pipe.grown && emptied) {
			shrink(pipe);
		}
		sweep();
	}

	/** Sizes back every grown pipe left unread for a second. */
	void sweep() {
		long now = System.nanoTime();
		for (Pipe other : this.grown) {
			if (now - other.lastReadNanos > IDLE_NANOS) {
				shrink(other);
			}
		}
	}

	/**
	 * How long the pump's threads may wait for a ready pipe before they {@link #sweep()}:
	 * without limit while no pipe is grown. Why a limit otherwise: a grown pipe whose
	 * child went quiet right after a turn that did not shrink it (the turn that grew it,
	 * or one that ended on its share) is read no more, and the other children may be
	 * quiet too.
	 */
	int waitMillis() {
		return this.grown.isEmpty() ? -1 : SWEEP_MILLIS;
	}

	/**
	 * The pipe ended, before its descriptor is closed: it is never resized again, and its
	 * share is given back.
	 */
	void ended(Pipe pipe) {
		synchronized (pipe) {
			pipe.closed = true;
			release(pipe);
		}
	}

	private void grow(Pipe pipe) {
		pipe.fullReads = 0;
		if (this.grownCount.incrementAndGet() > GROWN_PIPES) {
			this.grownCount.decrementAndGet();
			return;
		}
		synchronized (pipe) {
			// Why ask again: a child may have sized its own pipe since, and a pipe
			// already this large is left alone.
			int current = this.posix.pipeCapacity(pipe.fd);
			if (current > 0 && current < GROWN_CAPACITY && this.posix.resizePipe(pipe.fd, GROWN_CAPACITY) > 0) {
				pipe.grown = true;
				pipe.justGrown = true;
				this.grown.add(pipe);
				return;
			}
		}
		this.grownCount.decrementAndGet();
		pipe.fullReads = -FULL_READS_AFTER_REFUSAL;
	}

	private void shrink(Pipe pipe) {
		// Why under the pipe's own lock: another pump thread may size it back while it
		// ends, and an ended pipe's descriptor number may already belong to another file.
		synchronized (pipe) {
			if (!pipe.closed && pipe.grown && this.posix.resizePipe(pipe.fd, pipe.defaultCapacity) > 0) {
				release(pipe);
			}
		}
	}

	private void release(Pipe pipe) {
		if (pipe.grown) {
			pipe.grown = false;
			this.grown.remove(pipe);
			this.grownCount.decrementAndGet();
		}
	}

	/**
	 * One pipe's size as the pump knows it. Its counts are kept by the pipe's turns,
	 * under its capture's lock; its size, under its own lock, since other pipes' turns
	 * may size it back.
	 */
	static final class Pipe {

		final int fd;

		/**
		 * The capacity the kernel gave the pipe (negative if it could not be read: never
		 * resized).
		 */
		final int defaultCapacity;

		/** Full reads in a row; negative while waiting after a refusal. */
		int fullReads;

		/** Whether the pipe was grown in the pump's current turn. */
		boolean justGrown;

		volatile long lastReadNanos = System.nanoTime();

		volatile boolean grown;

		boolean closed;

		Pipe(int fd, int defaultCapacity) {
			this.fd = fd;
			this.defaultCapacity = defaultCapacity;
		}

	}

}
