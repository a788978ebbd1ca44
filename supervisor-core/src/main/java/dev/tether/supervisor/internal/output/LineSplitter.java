package dev.tether.supervisor.internal.output;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * One pipe of one process: splits what is read from it into lines for its
 * {@link ChildOutput}. A line split across reads is joined; a line longer than the limit
 * (its newline included) is cut (at a UTF-8 character boundary) with a marker, the piece
 * and its marker within the limit, and its rest follows as the next line; a last line
 * without a newline is delivered, with one, when the pipe ends. Any bytes are passed
 * through as they are. Used by one pump thread at a time.
 */
final class LineSplitter {

	private static final byte[] NONE = new byte[0];

	private static final int LANE_CAPACITY = 255;

	// Why: a carry this large came from one long line; giving it back keeps idle children
	// small.
	private static final int KEPT_CARRY = 4096;

	/**
	 * The longest carried line {@link #putCarry} puts before the next read: room a read
	 * buffer keeps at its start.
	 */
	static final int HEADROOM = KEPT_CARRY;

	final int fd;

	final Stream stream;

	final ChildOutput output;

	/** The pipe's size, as the pump knows it. */
	final PipeSizer.Pipe pipe;

	/** The longest line, without its newline, that is written as it is. */
	private final int maxLine;

	/** The bytes a cut piece keeps, before its marker and newline. */
	private final int cutAt;

	private final byte[] cutMarker;

	private byte[] carry = NONE;

	private int carried;

	/** Whether the carried line was put before the bytes of the read being accepted. */
	private boolean carryInBuffer;

	private final @Nullable LineWatch watch;

	/**
	 * @param watch the readiness watch of the process writing to this pipe, or
	 * {@code null}
	 */
	LineSplitter(int fd, Stream stream, ChildOutput output, PipeSizer.Pipe pipe, @Nullable LineWatch watch) {
		this.fd = fd;
		this.watch = watch;
		this.pipe = pipe;
		this.stream = stream;
		this.output = output;
		int limit = output.settings().maxLineLength();
		this.cutMarker = (" [line cut at " + limit + " bytes; it continues on the next line]")
			.getBytes(StandardCharsets.US_ASCII);
		// Why the newline and the marker count: every line written, whole or cut, then
		// fits in the limit, and so in a file of max-size (never smaller than the limit),
		// which a rotation then never exceeds.
		this.maxLine = limit - 1;
		this.cutAt = limit - this.cutMarker.length - 1;
	}

	/**
	 * Before a read into {@code buffer} (cleared): puts the line carried over from the
	 * last read at its start, when it is no longer than {@link #HEADROOM}, and moves the
	 * position past it, where the read is to go. Why: the carried line and the lines of
	 * the next read then go to the file in one write, not two (one system call per chunk,
	 * not two), and the carried bytes are not written from a heap array (which the
	 * channel copies to a direct buffer first). The carry is kept until {@link #accept}
	 * takes the read: a read that finds nothing leaves it as it was.
	 */
	void putCarry(ByteBuffer buffer) {
		this.carryInBuffer = this.carried > 0 && this.carried <= HEADROOM;
		if (this.carryInBuffer) {
			buffer.put(this.carry, 0, this.carried);
		}
	}

	/**
	 * Takes the bytes from the buffer's position to its limit, as read from the pipe,
	 * after what {@link #putCarry} put before them.
	 * @param read a little-endian buffer
	 * @param words room for the bytes read as words: the calling thread's own, at least
	 * an eighth of the buffer's capacity long
	 */
	void accept(ByteBuffer read, long[] words) {
		this.output.received(read.remaining());
		if (this.carryInBuffer) {
			this.carryInBuffer = false;
			read.position(read.position() - this.carried);
			this.carried = 0;
		}
		else if (this.carried > 0) {
			int newline = indexOfNewline(read, read.position());
			carry(read, (newline < 0) ? read.limit() : newline + 1);
			if (newline < 0) {
				return;
			}
			emitCarry();
		}
		int limit = read.limit();
		int runStart = read.position();
		int lastNewline = lastIndexOfNewline(read, runStart, limit);
		if (lastNewline >= 0) {
			// Why the lengths are checked apart from the count: the count must look at
			// every byte and runs fastest as a loop that does nothing else, while the
			// check only needs a newline within every stretch of the limit's length,
			// found searching back from the stretch's end: a few bytes per stretch, not
			// every byte.
			int overLong;
			while ((overLong = firstOverLongLine(read, runStart, lastNewline)) >= 0) {
				emit(read, runStart, overLong, countNewlines(read, words, runStart, overLong));
				int newline = indexOfNewline(read, overLong + this.maxLine);
				cutLine(read, overLong, newline);
				runStart = newline + 1;
			}
			emit(read, runStart, lastNewline + 1, countNewlines(read, words, runStart, lastNewline + 1));
			read.position(lastNewline + 1);
		}
		carry(read, limit);
	}

	/**
	 * The start of the first line longer than the limit among the lines from {@code from}
	 * to the newline at {@code lastNewline}, or -1.
	 */
	private int firstOverLongLine(ByteBuffer read, int from, int lastNewline) {
		int lineStart = from;
		while (lastNewline - lineStart > this.maxLine) {
			int newline = lastIndexOfNewline(read, lineStart, lineStart + this.maxLine + 1);
			if (newline < 0) {
				return lineStart;
			}
			lineStart = newline + 1;
		}
		return -1;
	}

	/**
	 * How many newlines the bytes from {@code from} to {@code to} hold. Why a copy into
	 * an array: a plain loop over an array is one the compiler turns into vector
	 * instructions, and one over the buffer is not.
	 */
	private static int countNewlines(ByteBuffer read, long[] words, int from, int to) {
		int whole = (to - from) >>> 3;
		int position = read.position();
		read.position(from);
		read.asLongBuffer().get(words, 0, whole);
		read.position(position);
		long count = 0;
		// Why eight byte-wide counters in a word, emptied every 255 words: adding the
		// words' newline marks lane by lane keeps the inner loop free of anything but
		// vectorisable arithmetic, and a lane holds 255 before it would carry into the
		// next.
		for (int block = 0; block < whole; block += LANE_CAPACITY) {
			long lanes = 0;
			for (int w = block, end = Math.min(block + LANE_CAPACITY, whole); w < end; w++) {
				lanes += newlineBytes(words[w]) >>> 7;
			}
			count += sumOfBytes(lanes);
		}
		for (int i = from + (whole << 3); i < to; i++) {
			if (read.get(i) == '\n') {
				count++;
			}
		}
		return (int) count;
	}

	/** The sum of the eight bytes of {@code lanes}. */
	private static long sumOfBytes(long lanes) {
		long pairs = (lanes & 0x00FF00FF00FF00FFL) + ((lanes >>> 8) & 0x00FF00FF00FF00FFL);
		return (pairs * 0x0001000100010001L) >>> 48;
	}

	/** Delivers the over-long line from {@code start} to its newline in pieces. */
	private void cutLine(ByteBuffer read, int start, int newline) {
		read.position(start);
		carry(read, newline + 1);
		emitCarry();
	}

	/** The pipe ended: a last line without newline is delivered with one. */
	void finish() {
		if (this.carried > 0) {
			reserve(this.carried + 1);
			this.carry[this.carried++] = '\n';
			emitCarry();
		}
	}

	private void emit(ByteBuffer read, int start, int end, int count) {
		if (count > 0) {
			this.output.write(this.stream, read.duplicate().limit(end).position(start), count, this.watch);
		}
	}

	/**
	 * Appends the bytes up to {@code end} to the carried line, cutting it each time it
	 * grows past the limit.
	 */
	private void carry(ByteBuffer read, int end) {
		while (read.position() < end) {
			reserve(Math.min(this.carried + end - read.position(), this.maxLine + 1));
			int take = Math.min(end - read.position(), this.maxLine + 1 - this.carried);
			read.get(this.carry, this.carried, take);
			this.carried += take;
			if (this.carried == this.maxLine + 1 && this.carry[this.maxLine] != '\n') {
				cut();
			}
		}
	}

	private void cut() {
		int at = this.cutAt;
		// Why: a cut inside a UTF-8 sequence would leave both pieces with an invalid
		// character.
		for (int back = 0; back < 3 && at > 1 && (this.carry[at] & 0xC0) == 0x80; back++) {
			at--;
		}
		ByteBuffer piece = ByteBuffer.allocate(at + this.cutMarker.length + 1);
		piece.put(this.carry, 0, at).put(this.cutMarker).put((byte) '\n').flip();
		this.output.write(this.stream, piece, 1, this.watch);
		System.arraycopy(this.carry, at, this.carry, 0, this.carried - at);
		this.carried -= at;
	}

	private void emitCarry() {
		this.output.write(this.stream, ByteBuffer.wrap(this.carry, 0, this.carried), 1, this.watch);
		this.carried = 0;
		if (this.carry.length > KEPT_CARRY) {
			this.carry = NONE;
		}
	}

	private void reserve(int needed) {
		if (needed > this.carry.length) {
			byte[] larger = new byte[Math.max(needed,
					Math.min(Math.max(256, this.carry.length * 2), this.maxLine + 1))];
			System.arraycopy(this.carry, 0, larger, 0, this.carried);
			this.carry = larger;
		}
	}

	/**
	 * The index of the first newline at or after {@code from}, or -1. Why eight bytes at
	 * a time: this search is most of what the pump does with a byte besides copying it (a
	 * byte-at-a-time loop was a quarter of its time).
	 */
	static int indexOfNewline(ByteBuffer buffer, int from) {
		int limit = buffer.limit();
		int i = from;
		if (buffer.order() == ByteOrder.LITTLE_ENDIAN) {
			for (; i + Long.BYTES <= limit; i += Long.BYTES) {
				long newlines = newlineBytes(buffer.getLong(i));
				if (newlines != 0) {
					return i + (Long.numberOfTrailingZeros(newlines) >>> 3);
				}
			}
		}
		for (; i < limit; i++) {
			if (buffer.get(i) == '\n') {
				return i;
			}
		}
		return -1;
	}

	/** The index of the last newline from {@code from} to before {@code to}, or -1. */
	static int lastIndexOfNewline(ByteBuffer buffer, int from, int to) {
		int i = to;
		if (buffer.order() == ByteOrder.LITTLE_ENDIAN) {
			for (; i - Long.BYTES >= from; i -= Long.BYTES) {
				long newlines = newlineBytes(buffer.getLong(i - Long.BYTES));
				if (newlines != 0) {
					return i - Long.BYTES + ((Long.SIZE - 1 - Long.numberOfLeadingZeros(newlines)) >>> 3);
				}
			}
		}
		for (i--; i >= from; i--) {
			if (buffer.get(i) == '\n') {
				return i;
			}
		}
		return -1;
	}

	/** The high bit of each byte of {@code word} that is a newline, and no other bit. */
	private static long newlineBytes(long word) {
		long zeroWhereNewline = word ^ 0x0A0A0A0A0A0A0A0AL;
		// Why this form: it marks exactly the zero bytes, with no false mark above one
		// (as the shorter form has).
		return ~(((zeroWhereNewline & 0x7F7F7F7F7F7F7F7FL) + 0x7F7F7F7F7F7F7F7FL) | zeroWhereNewline
				| 0x7F7F7F7F7F7F7F7FL);
	}

}
