package dev.tether.supervisor.output;

import java.util.concurrent.atomic.AtomicInteger;

import dev.tether.supervisor.os.Posix;

/**
 * Sizes the pipes the pump reads. A pipe starts at the kernel's default; when four reads in a row find it full and
 * its lines went out quickly, its child is outrunning the pump, and the pipe is grown to 1 MB; when the pump finds
 * it empty, the child has fallen behind and the pipe gets its default size back.
 * <p>
 * Why grow: a chunk of output costs a wake-up and a few system calls whatever its size, and a child that can run
 * ahead of its reader by more than one chunk keeps both busy at once (measured: 1.4 times the bytes per second of a
 * 64 KB pipe, for a fifth less CPU per byte). Why not for a slow sink: the child waits on the sink anyway, and a
 * larger pipe would only hold more lines back. Why give the size back: pipe buffers count against the user's
 * {@code fs.pipe-user-pages-soft} (64 MB by default), past which the kernel gives every new pipe of the user, the
 * children's own included, two pages; for the same reason at most {@value #GROWN_PIPES} pipes are grown at once in
 * the JVM.
 */
final class PipeSizer {

	/** The capacity a pipe is grown to. */
	static final int GROWN_CAPACITY = 1024 * 1024;

	private static final int GROWN_PIPES = 16;

	private static final int FULL_READS_TO_GROW = 4;

	/** The slowest sink a grown pipe helps: 64 MB/s, a 64 KB chunk written out within a millisecond. */
	private static final long FAST_SINK_BYTES_PER_SECOND = 64L * 1024 * 1024;

	/** Why wait after a refusal: the kernel refuses a user past its pipe allowance until its pipes shrink. */
	private static final int FULL_READS_AFTER_REFUSAL = 1024;

	private final Posix posix;

	private final AtomicInteger grownPipes = new AtomicInteger();

	PipeSizer(Posix posix) {
		this.posix = posix;
	}

	/** What is known of a pipe just handed to the pump. */
	Pipe watch(int fd) {
		return new Pipe(fd, this.posix.pipeCapacity(fd));
	}

	/**
	 * After each read of the pipe: grows it once its child has kept it full, and gives a grown one its default size
	 * back once the pump finds it empty.
	 * @param read the bytes the read returned (0 when there were none)
	 * @param emptied whether the read left the pipe empty (it returned less than asked)
	 * @param deliveryNanos how long writing those bytes to the child's sinks took
	 */
	void afterRead(Pipe pipe, int read, boolean emptied, long deliveryNanos) {
		if (pipe.grown) {
			// Why it may fail: the child wrote more than the default size since (EBUSY); then the pipe is not empty,
			// the pump reads it again, and this is tried again when it empties it.
			if (emptied && this.posix.resizePipe(pipe.fd, pipe.defaultCapacity) > 0) {
				ended(pipe);
			}
			return;
		}
		boolean full = pipe.defaultCapacity > 0 && read >= pipe.defaultCapacity
				&& deliveryNanos * FAST_SINK_BYTES_PER_SECOND <= read * 1_000_000_000L;
		// Why keep a negative count on a read that is not full: it is the wait after a refusal.
		pipe.fullReads = full ? pipe.fullReads + 1 : Math.min(pipe.fullReads, 0);
		if (pipe.fullReads >= FULL_READS_TO_GROW) {
			grow(pipe);
		}
	}

	/** The pipe ended: its share of the grown pipes is given back. */
	void ended(Pipe pipe) {
		if (pipe.grown) {
			pipe.grown = false;
			this.grownPipes.decrementAndGet();
		}
	}

	private void grow(Pipe pipe) {
		pipe.fullReads = 0;
		if (this.grownPipes.incrementAndGet() > GROWN_PIPES) {
			this.grownPipes.decrementAndGet();
			return;
		}
		// Why ask again: a child may have sized its own pipe since, and a pipe already this large is left alone.
		int current = this.posix.pipeCapacity(pipe.fd);
		if (current > 0 && current < GROWN_CAPACITY && this.posix.resizePipe(pipe.fd, GROWN_CAPACITY) > 0) {
			pipe.grown = true;
			return;
		}
		this.grownPipes.decrementAndGet();
		pipe.fullReads = -FULL_READS_AFTER_REFUSAL;
	}

	/** One pipe's size as the pump knows it. Used under its capture's lock. */
	static final class Pipe {

		final int fd;

		/** The capacity the kernel gave the pipe (negative if it could not be read: never resized). */
		final int defaultCapacity;

		/** Full reads in a row; negative while waiting after a refusal. */
		int fullReads;

		boolean grown;

		Pipe(int fd, int defaultCapacity) {
			this.fd = fd;
			this.defaultCapacity = defaultCapacity;
		}

	}

}
