package dev.tether.supervisor.internal.resources;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads {@code /proc} files whole into one buffer that it reuses, from a descriptor kept
 * open (a positional read at offset 0, which the kernel answers with the file's content
 * as of now) or from a path. Not thread-safe: its owner serialises the reads, and reads a
 * file's bytes before the next read replaces them.
 */
final class ProcReader {

	// Why this size: a stat is about 300 bytes, a statm 30 and a children list rarely
	// more; a longer one grows it.
	private static final int INITIAL = 4096;

	// Why: a /proc file is made whole into the kernel's buffer before it is copied,
	// except a list of records (such as children), which stops at a full page even when
	// more room was given. A read that returned less than the room and less than a page
	// minus the longest record is therefore the whole file; any other reads on. The
	// smallest page is 4 KB, so this holds for every page size.
	private static final int SURELY_WHOLE = 4096 - 64;

	private ByteBuffer buffer = ByteBuffer.allocate(INITIAL);

	private int length;

	/** The bytes of the last read; valid from index 0 to {@link #length()}. */
	byte[] bytes() {
		return this.buffer.array();
	}

	/** How many bytes the last read gave. */
	int length() {
		return this.length;
	}

	/**
	 * Reads {@code channel}'s content whole from offset 0.
	 * @return whether it could: {@code false} when its process has ended ({@code ESRCH}),
	 * the channel was closed (an interrupt closes it), or any other error
	 */
	boolean read(FileChannel channel) {
		this.length = 0;
		try {
			while (true) {
				if (this.length == this.buffer.capacity()) {
					grow();
				}
				int room = this.buffer.capacity() - this.length;
				int read = channel.read(this.buffer.clear().position(this.length), this.length);
				if (read <= 0) {
					return true;
				}
				this.length += read;
				if (read < room && read < SURELY_WHOLE) {
					return true;
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			this.length = 0;
			return false;
		}
	}

	/**
	 * Opens, reads whole and closes {@code path}; {@code false} when it cannot be read.
	 */
	boolean read(Path path) {
		try (FileChannel channel = open(path)) {
			return read(channel);
		}
		catch (IOException | RuntimeException ex) {
			this.length = 0;
			return false;
		}
	}

	/** Opens {@code path} for reading; the caller closes the channel. */
	static FileChannel open(Path path) throws IOException {
		return FileChannel.open(path, StandardOpenOption.READ);
	}

	private void grow() {
		ByteBuffer larger = ByteBuffer.allocate(this.buffer.capacity() * 2);
		larger.put(0, this.buffer.array(), 0, this.length);
		this.buffer = larger;
	}

}
