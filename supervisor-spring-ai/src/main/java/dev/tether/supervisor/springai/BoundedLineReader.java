package dev.tether.supervisor.springai;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * Lines of a stdio MCP server's stdout, each at most a given number of bytes. Why not a
 * {@code BufferedReader}: it keeps any line whole, so one endless line from a server
 * exhausts the application's heap; here a line that passes the bound fails the read, and
 * nothing of it is kept.
 */
final class BoundedLineReader implements AutoCloseable {

	private final InputStream in;

	private final int max;

	private final byte[] chunk = new byte[8192];

	private int chunkStart;

	private int chunkEnd;

	private byte[] line = new byte[256];

	private int length;

	BoundedLineReader(InputStream in, int max) {
		this.in = in;
		this.max = max;
	}

	/**
	 * The next line, without its line break (a carriage return before it is dropped);
	 * {@code null} at the end of the stream (a last line without a line break is returned
	 * first).
	 * @throws TooLongException when a line passes the bound
	 */
	byte @Nullable [] next() throws IOException {
		for (;;) {
			if (this.chunkStart == this.chunkEnd) {
				int read = this.in.read(this.chunk);
				if (read < 0) {
					return (this.length > 0) ? take() : null;
				}
				this.chunkStart = 0;
				this.chunkEnd = read;
			}
			int newline = this.chunkStart;
			while (newline < this.chunkEnd && this.chunk[newline] != '\n') {
				newline++;
			}
			append(this.chunkStart, newline);
			if (newline < this.chunkEnd) {
				this.chunkStart = newline + 1;
				return take();
			}
			this.chunkStart = this.chunkEnd;
		}
	}

	private void append(int from, int to) throws TooLongException {
		int count = to - from;
		if (this.length + count > this.max) {
			this.length = 0;
			this.line = new byte[256];
			throw new TooLongException(this.max);
		}
		if (this.length + count > this.line.length) {
			this.line = Arrays.copyOf(this.line,
					Math.min(this.max, Math.max(this.line.length * 2, this.length + count)));
		}
		System.arraycopy(this.chunk, from, this.line, this.length, count);
		this.length += count;
	}

	private byte[] take() {
		int end = (this.length > 0 && this.line[this.length - 1] == '\r') ? this.length - 1 : this.length;
		byte[] taken = Arrays.copyOf(this.line, end);
		this.length = 0;
		if (this.line.length > 65536) {
			// Why: one large message must not hold its buffer for the session's life.
			this.line = new byte[256];
		}
		return taken;
	}

	@Override
	public void close() throws IOException {
		this.in.close();
	}

	/** A line passed the bound. */
	static final class TooLongException extends IOException {

		TooLongException(int max) {
			super("a message (one line) longer than " + max + " bytes");
		}

	}

}
