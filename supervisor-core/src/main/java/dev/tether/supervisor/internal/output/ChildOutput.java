package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.tether.supervisor.output.CapturedOutput;
import dev.tether.supervisor.output.LogSettings;

/**
 * The sinks of one child's output, shared by every process the child runs over its life:
 * its rotated file and its logger, as its {@link LogSettings} say, and the count of what
 * it wrote. Lines of its stdout and stderr, and of a previous process still finishing its
 * output, are written whole, one at a time.
 */
public final class ChildOutput implements CapturedOutput {

	private static final Logger logger = LoggerFactory.getLogger(ChildOutput.class);

	private final String child;

	private final LogSettings settings;

	private final @Nullable RotatingFile file;

	private final @Nullable LoggerSink loggerSink;

	private final LongAdder bytes = new LongAdder();

	private final LongAdder lines = new LongAdder();

	private final AtomicInteger openCaptures = new AtomicInteger();

	// Why a monitor of its own: this object's is held by a write, which a sink that
	// blocks can hold for long.
	private final Object drained = new Object();

	private @Nullable String failure;

	// Why kept apart from the pipes: set by the launcher just before a spawn, taken by
	// the pipes opened for that spawn, so that only that process's lines are matched.
	private volatile @Nullable LineWatch nextWatch;

	/**
	 * @param child the child's name
	 * @param settings where its output goes
	 * @param defaultFile its file when the settings name none
	 */
	public ChildOutput(String child, LogSettings settings, Path defaultFile) {
		this.child = child;
		this.settings = settings;
		Path path = (settings.file() != null) ? settings.file() : defaultFile;
		this.file = settings.fileEnabled() ? new RotatingFile(path, settings.maxSize(), settings.maxHistory()) : null;
		this.loggerSink = settings.logger() ? new LoggerSink(child, settings.stderrLevel()) : null;
	}

	@Override
	public String child() {
		return this.child;
	}

	@Override
	public LogSettings settings() {
		return this.settings;
	}

	@Override
	public @Nullable Path file() {
		return (this.file != null) ? this.file.path() : null;
	}

	/**
	 * Whether its stdout and stderr must come through separate pipes: only the logger
	 * tells them apart.
	 */
	public boolean separateStreams() {
		return this.loggerSink != null;
	}

	@Override
	public long bytes() {
		return this.bytes.sum();
	}

	@Override
	public long lines() {
		return this.lines.sum();
	}

	@Override
	public void writeStdoutLine(byte[] line) {
		int length = Math.min(line.length, this.settings.maxLineLength() - 1);
		ByteBuffer bytes = ByteBuffer.allocate(length + 1).put(line, 0, length).put((byte) '\n').flip();
		received(bytes.remaining());
		write(Stream.STDOUT, bytes, 1, null);
	}

	@Override
	public byte[] lastLines(int lines, int maxBytes) throws IOException {
		Path path = file();
		return (path != null) ? LogTail.lastLines(path, lines, maxBytes) : new byte[0];
	}

	@Override
	public boolean awaitDrained(Duration bound) throws InterruptedException {
		long deadline = System.nanoTime() + bound.toNanos();
		synchronized (this.drained) {
			while (this.openCaptures.get() > 0) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return false;
				}
				this.drained.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
			}
		}
		return true;
	}

	@Override
	public Optional<SeekableByteChannel> openLog() throws IOException {
		Path path = file();
		return Optional.ofNullable((path != null) ? LogFiles.read(path) : null);
	}

	/**
	 * Checks the file before a process is started, so that a file that cannot be written
	 * (a planted link, a directory without permission) fails the start, named, instead of
	 * losing the output afterwards. A missing file is created then only in a directory
	 * another user can write (see {@link LogFiles#checkAppendable}).
	 * @throws IOException naming the file
	 */
	public void prepare() throws IOException {
		// Why not under this object's lock, like the writes: it runs as a start is
		// handed to the spawner, under the supervisor's lock, and a write may be held
		// there by a sink that blocks (a logger that waits); the writer opens the file
		// itself.
		if (this.file != null) {
			this.file.check();
		}
	}

	/**
	 * Matches the lines of the next process, the one whose pipes are opened next, against
	 * {@code watch} until one matches ({@code null}: none). Why not every line of the
	 * child: during a rolling restart the process it replaces writes here too, and its
	 * lines must not make the new one ready.
	 */
	public void watch(@Nullable LineWatch watch) {
		this.nextWatch = watch;
	}

	/** The watch for the pipes being opened, once. */
	@Nullable LineWatch takeWatch() {
		LineWatch taken = this.nextWatch;
		this.nextWatch = null;
		return taken;
	}

	void received(int count) {
		this.bytes.add(count);
	}

	// Why no lock: the spawner thread counts a new pipe while a pump thread may be held
	// in write() by a blocked sink.
	void opened() {
		this.openCaptures.incrementAndGet();
	}

	/**
	 * A pipe reached its end; the file is closed once no pipe of the child is left, and
	 * reopened by the next.
	 */
	void closed() {
		if (this.openCaptures.decrementAndGet() != 0) {
			return;
		}
		synchronized (this.drained) {
			this.drained.notifyAll();
		}
		if (this.file == null) {
			return;
		}
		synchronized (this) {
			// Why again: a new process's pipe may have been counted since.
			if (this.openCaptures.get() == 0) {
				try {
					this.file.close();
				}
				catch (IOException ex) {
					failed(ex);
				}
			}
		}
	}

	/**
	 * Writes complete lines, from the buffer's position to its limit, to every sink; the
	 * position ends at the limit.
	 * @param count how many lines they are
	 * @param watch the watch of the process that wrote them, or {@code null}
	 */
	synchronized void write(Stream stream, ByteBuffer complete, int count, @Nullable LineWatch watch) {
		this.lines.add(count);
		if (watch != null && !watch.matched()) {
			watch.scan(complete);
		}
		if (this.loggerSink != null) {
			this.loggerSink.log(stream, complete);
		}
		if (this.file != null) {
			try {
				this.file.write(complete);
				this.failure = null;
			}
			catch (IOException ex) {
				failed(ex);
			}
		}
		complete.position(complete.limit());
	}

	/**
	 * Says a failing file once, until it works again. Why: a full disk must not log once
	 * per line.
	 */
	private void failed(IOException ex) {
		String reason = ex.toString();
		if (!reason.equals(this.failure)) {
			this.failure = reason;
			logger.warn("Output of child '{}' is lost until {} can be written again: {}", this.child, file(), reason);
		}
	}

}
