package dev.tether.supervisor.internal.output;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * The last lines of a child's log, read backwards from the end of its file and, where
 * that file holds fewer, of its rotated files, newest first. Never more than a given
 * number of bytes: a tail that would be longer keeps its newest lines. Each file is
 * opened by {@link LogFiles}'s rule: a link, a FIFO or another user's file among them is
 * refused at once, naming it.
 */
public final class LogTail {

	private LogTail() {
	}

	/**
	 * @param file the child's log file
	 * @param lines how many lines at most
	 * @param maxBytes how many bytes at most
	 * @return the lines, each ending with a newline, oldest first; empty when there is no
	 * file yet
	 * @throws IOException naming the file that could not be read
	 */
	public static byte[] lastLines(Path file, int lines, int maxBytes) throws IOException {
		Deque<byte[]> parts = new ArrayDeque<>();
		int wanted = lines;
		int budget = maxBytes;
		for (int index = 0; wanted > 0 && budget > 0; index++) {
			Path part = (index == 0) ? file : RotatingFile.rotated(file, index);
			if (!Files.exists(part, LinkOption.NOFOLLOW_LINKS)) {
				break;
			}
			Tail tail = tail(part, wanted, budget);
			parts.addFirst(tail.bytes());
			wanted -= tail.lines();
			budget -= tail.bytes().length;
			if (!tail.wholeFile()) {
				break;
			}
		}
		ByteArrayOutputStream joined = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			joined.write(part);
		}
		return joined.toByteArray();
	}

	private static Tail tail(Path part, int wanted, int budget) throws IOException {
		byte[] region;
		long size;
		try (FileChannel channel = LogFiles.read(part)) {
			if (channel == null) {
				return new Tail(new byte[0], 0, true);
			}
			size = channel.size();
			ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size, budget));
			long from = size - buffer.capacity();
			// Why a loop: a positional read may return fewer bytes than asked.
			int read;
			do {
				read = channel.read(buffer, from + buffer.position());
			}
			while (read >= 0 && buffer.hasRemaining());
			region = buffer.array();
		}
		boolean wholeFile = region.length == size;
		int start = 0;
		int lines = 0;
		// Why from the second-last byte: the newline that ends the last line does not
		// start one.
		for (int i = region.length - 2; i >= 0; i--) {
			if (region[i] == '\n' && ++lines == wanted) {
				start = i + 1;
				break;
			}
		}
		if (start == 0 && !wholeFile) {
			// Why: the budget ran out inside a line; a tail shows whole lines only.
			int firstNewline = indexOf(region, (byte) '\n');
			start = (firstNewline < 0) ? region.length : firstNewline + 1;
		}
		else if (start == 0 && region.length > 0) {
			lines++;
		}
		return new Tail(Arrays.copyOfRange(region, start, region.length), Math.min(lines, wanted),
				wholeFile && start == 0);
	}

	private static int indexOf(byte[] bytes, byte value) {
		for (int i = 0; i < bytes.length; i++) {
			if (bytes[i] == value) {
				return i;
			}
		}
		return -1;
	}

	private record Tail(byte[] bytes, int lines, boolean wholeFile) {
	}

}
