package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.jspecify.annotations.Nullable;

/**
 * A file of whole lines, rotated by size: past {@code maxSize} it becomes
 * {@code <file>.1}, the older ones move up by one, and the oldest beyond
 * {@code maxHistory} is deleted. A write never splits a line across two files. Every
 * open, the first and the one after each rotation, goes by {@link LogFiles}'s rule (the
 * file is created owner-only, exclusively; a link, a FIFO or another user's file is
 * refused). Not thread-safe: its {@link ChildOutput} serialises the writes.
 */
final class RotatingFile {

	private final Path file;

	private final long maxSize;

	private final int maxHistory;

	private @Nullable FileChannel channel;

	private long size;

	private boolean directoryChecked;

	RotatingFile(Path file, long maxSize, int maxHistory) {
		this.file = file;
		this.maxSize = maxSize;
		this.maxHistory = maxHistory;
	}

	Path path() {
		return this.file;
	}

	/** The name of the {@code index}th rotated file ({@code <file>.1} the newest). */
	static Path rotated(Path file, int index) {
		return file.resolveSibling(file.getFileName() + "." + index);
	}

	/**
	 * Appends {@code lines} (complete lines, from its position to its limit), rotating
	 * first where they do not fit.
	 */
	void write(ByteBuffer lines) throws IOException {
		FileChannel target = open();
		while (lines.hasRemaining()) {
			long room = this.maxSize - this.size;
			if (lines.remaining() <= room) {
				writeFully(target, lines, lines.limit());
				return;
			}
			int end = endOfLastLineWithin(lines, room);
			if (end < 0 && this.size == 0) {
				// Why: a line longer than the limit goes whole into a file of its own
				// rather than being split.
				end = endOfFirstLine(lines);
			}
			if (end > 0) {
				writeFully(target, lines, end);
			}
			rotate();
			target = open();
		}
	}

	private void writeFully(FileChannel target, ByteBuffer lines, int end) throws IOException {
		int limit = lines.limit();
		lines.limit(end);
		while (lines.hasRemaining()) {
			this.size += target.write(lines);
		}
		lines.limit(limit);
	}

	/**
	 * The index just past the last newline that ends within {@code room} bytes of the
	 * position, or -1.
	 */
	private static int endOfLastLineWithin(ByteBuffer lines, long room) {
		int start = lines.position();
		int newline = LineSplitter.lastIndexOfNewline(lines, start, (int) Math.min(lines.limit(), start + room));
		return (newline >= 0) ? newline + 1 : -1;
	}

	private static int endOfFirstLine(ByteBuffer lines) {
		int newline = LineSplitter.indexOfNewline(lines, lines.position());
		return (newline >= 0) ? newline + 1 : lines.limit();
	}

	/** Opens the file if it is not open. */
	FileChannel open() throws IOException {
		FileChannel current = this.channel;
		if (current != null) {
			return current;
		}
		// Why the directory once per opening, not at each rotation: a rotation reopens in
		// the directory checked moments before, which only this user or root can have
		// changed since (the check refuses any other), and the check (every directory
		// up to the root, and this process's uid read from /proc) cost the pump more
		// than the rotation's own system calls. Why the file each time: it is created
		// anew then, by the same rule.
		boolean checkingNow = !this.directoryChecked;
		if (checkingNow) {
			LogFiles.checkDirectory(this.file);
			this.directoryChecked = true;
		}
		FileChannel opened;
		try {
			opened = LogFiles.append(this.file);
		}
		catch (IOException ex) {
			if (checkingNow) {
				throw ex;
			}
			// Why once more with the check: the directory may have been removed since,
			// and is then created again, checked, as at the first opening.
			this.directoryChecked = false;
			return open();
		}
		this.size = opened.size();
		this.channel = opened;
		return opened;
	}

	/**
	 * Checks that the file can be opened under the writer's rule, without touching the
	 * writer's state: opened (or created) and closed again. Thread-safe, unlike the
	 * writes.
	 * @throws IOException naming the file and why it cannot be used
	 */
	void check() throws IOException {
		LogFiles.checkDirectory(this.file);
		LogFiles.checkAppendable(this.file);
	}

	private void rotate() throws IOException {
		closeChannel();
		if (this.maxHistory == 0) {
			LogDeleter.delete(this.file);
			return;
		}
		LogDeleter.delete(rotated(this.file, this.maxHistory));
		for (int index = this.maxHistory - 1; index >= 1; index--) {
			Path older = rotated(this.file, index);
			if (Files.exists(older, LinkOption.NOFOLLOW_LINKS)) {
				Files.move(older, rotated(this.file, index + 1), StandardCopyOption.REPLACE_EXISTING);
			}
		}
		Files.move(this.file, rotated(this.file, 1), StandardCopyOption.REPLACE_EXISTING);
	}

	/**
	 * Closes the file; the next write opens it again, its directory checked again.
	 */
	void close() throws IOException {
		this.directoryChecked = false;
		closeChannel();
	}

	private void closeChannel() throws IOException {
		FileChannel current = this.channel;
		this.channel = null;
		this.size = 0;
		if (current != null) {
			current.close();
		}
	}

}
