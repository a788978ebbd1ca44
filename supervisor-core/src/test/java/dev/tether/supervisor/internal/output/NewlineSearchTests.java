package dev.tether.supervisor.internal.output;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eight-bytes-at-a-time newline searches, forward and back, agree with byte-by-byte
 * ones, on bytes chosen to trip them.
 */
class NewlineSearchTests {

	private static final byte[] TRICKY = { '\n', 0x0B, 0x09, (byte) 0x8A, 0x0A, 0x00, (byte) 0xFF, 0x01, 'a' };

	@Test
	void agreesWithAByteByByteSearchEverywhere() {
		Random random = new Random(13);
		for (int round = 0; round < 2_000; round++) {
			byte[] bytes = new byte[random.nextInt(40)];
			for (int i = 0; i < bytes.length; i++) {
				bytes[i] = TRICKY[random.nextInt(TRICKY.length)];
			}
			for (ByteOrder order : new ByteOrder[] { ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN }) {
				ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length).order(order).put(bytes).flip();
				String described = Arrays.toString(bytes) + " " + order;
				for (int from = 0; from <= bytes.length; from++) {
					assertThat(LineSplitter.indexOfNewline(buffer, from)).as("%s from %d", described, from)
						.isEqualTo(byteByByte(bytes, from));
					for (int to = from; to <= bytes.length; to++) {
						assertThat(LineSplitter.lastIndexOfNewline(buffer, from, to))
							.as("%s from %d to %d", described, from, to)
							.isEqualTo(lastByteByByte(bytes, from, to));
					}
				}
			}
		}
	}

	private static int lastByteByByte(byte[] bytes, int from, int to) {
		for (int i = to - 1; i >= from; i--) {
			if (bytes[i] == '\n') {
				return i;
			}
		}
		return -1;
	}

	private static int byteByByte(byte[] bytes, int from) {
		for (int i = from; i < bytes.length; i++) {
			if (bytes[i] == '\n') {
				return i;
			}
		}
		return -1;
	}

}
