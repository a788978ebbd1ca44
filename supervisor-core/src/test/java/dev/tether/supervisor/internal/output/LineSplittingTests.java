package dev.tether.supervisor.internal.output;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import dev.tether.supervisor.output.LogSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The line splitting of a pipe's bytes, read in chunks of any size, agrees with a plain
 * reading of them, whether a line carried over from one read is put before the next or
 * written on its own: the file holds the same bytes (with a newline after a last line
 * that had none, and each cut marked), and the line count is the number of lines written.
 */
class LineSplittingTests {

	private static final byte[] BYTES = { '\n', '\n', 'a', 'b', 0x0B, 0x00, (byte) 0xFF, (byte) 0xC3, (byte) 0xA9 };

	private static final int MAX_LINE = 80;

	private static final String MARKER = " [line cut at " + MAX_LINE + " bytes; it continues on the next line]\n";

	/**
	 * The bytes a cut piece keeps: with its marker and newline it takes the whole limit.
	 */
	private static final int CUT_AT = MAX_LINE - MARKER.length();

	@TempDir
	Path directory;

	@Test
	void randomBytesInRandomChunksComeOutWholeAndCounted() throws Exception {
		Random random = new Random(29);
		for (int round = 0; round < 300; round++) {
			byte[] input = randomOutput(random);
			Path file = this.directory.resolve("round-" + round + ".log");
			ChildOutput output = new ChildOutput("random", settings(), file);
			LineSplitter capture = new LineSplitter(-1, Stream.STDOUT, output, new PipeSizer.Pipe(-1, 64 * 1024), null);
			output.opened();
			ByteBuffer buffer = ByteBuffer.allocateDirect(LineSplitter.HEADROOM + input.length)
				.order(ByteOrder.LITTLE_ENDIAN);
			long[] words = new long[buffer.capacity() / Long.BYTES];
			for (int at = 0; at < input.length;) {
				int length = Math.min(input.length - at, 1 + random.nextInt(random.nextBoolean() ? 300 : 8_000));
				buffer.clear();
				// Why not always: the carried line goes out both ways, before the next
				// read in its buffer (as the pump does it) and on its own.
				if (random.nextBoolean()) {
					capture.putCarry(buffer);
				}
				int start = buffer.position();
				buffer.put(input, at, length).limit(buffer.position()).position(start);
				capture.accept(buffer, words);
				at += length;
			}
			capture.finish();
			output.closed();

			byte[] written = Files.readAllBytes(file);
			String described = "round " + round + ": " + Arrays.toString(input);
			assertThat(withoutCuts(written)).as(described).isEqualTo(ended(input));
			assertThat(output.lines()).as(described).isEqualTo(count(written, (byte) '\n'));
			assertThat(output.bytes()).as(described).isEqualTo(input.length);
			for (String line : new String(written, StandardCharsets.ISO_8859_1).split("\n", -1)) {
				String marker = MARKER.substring(0, MARKER.length() - 1);
				if (line.endsWith(marker)) {
					// Why as low as three bytes less: a cut never splits a UTF-8
					// character.
					assertThat(line.length() - marker.length()).as(described).isBetween(CUT_AT - 3, CUT_AT);
				}
				else {
					// Why one less: the limit holds the line's newline too.
					assertThat(line.length()).as(described).isLessThanOrEqualTo(MAX_LINE - 1);
				}
			}
		}
	}

	private static byte[] randomOutput(Random random) {
		byte[] input = new byte[random.nextInt(random.nextBoolean() ? 2_000 : 12_000)];
		int longLineFrom = random.nextBoolean() ? random.nextInt(input.length + 1) : input.length;
		int emptyLinesFrom = random.nextBoolean() ? random.nextInt(input.length + 1) : input.length;
		// Why lines that fill the limit with their newline, one byte under and one over:
		// a cut must come exactly past the limit.
		int edgeLineFrom = random.nextInt(input.length + 1);
		int edgeLine = MAX_LINE - 2 + random.nextInt(3);
		for (int i = 0; i < input.length; i++) {
			// Why a stretch without newlines: lines past the limit must be cut, in one
			// chunk or across several.
			boolean inLongLine = i >= longLineFrom && i < longLineFrom + 3 * MAX_LINE;
			// Why a stretch of newlines only, longer than 2,040 bytes: every byte of the
			// words counted at once is a newline, more of them than a byte-wide counter
			// holds.
			if (i >= emptyLinesFrom && i < emptyLinesFrom + 2_500 && !inLongLine) {
				input[i] = '\n';
				continue;
			}
			if (i >= edgeLineFrom && i <= edgeLineFrom + edgeLine + 1) {
				input[i] = (i == edgeLineFrom || i == edgeLineFrom + edgeLine + 1) ? (byte) '\n' : (byte) 'e';
				continue;
			}
			do {
				input[i] = BYTES[random.nextInt(BYTES.length)];
			}
			while (inLongLine && input[i] == '\n');
		}
		return input;
	}

	private LogSettings settings() {
		return new LogSettings(null, true, Long.MAX_VALUE, 0, false, Level.WARN, MAX_LINE);
	}

	private static byte[] withoutCuts(byte[] written) {
		String text = new String(written, StandardCharsets.ISO_8859_1);
		return text.replace(MARKER, "").getBytes(StandardCharsets.ISO_8859_1);
	}

	private static byte[] ended(byte[] input) {
		if (input.length == 0 || input[input.length - 1] == '\n') {
			return input;
		}
		ByteArrayOutputStream ended = new ByteArrayOutputStream();
		ended.writeBytes(input);
		ended.write('\n');
		return ended.toByteArray();
	}

	private static long count(byte[] bytes, byte wanted) {
		long count = 0;
		for (byte b : bytes) {
			if (b == wanted) {
				count++;
			}
		}
		return count;
	}

}
