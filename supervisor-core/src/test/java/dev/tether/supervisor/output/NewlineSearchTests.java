package dev.tether.supervisor.output;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eight-bytes-at-a-time newline search agrees with a byte-by-byte one, on bytes chosen to trip it.
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
				for (int from = 0; from <= bytes.length; from++) {
					assertThat(Capture.indexOfNewline(buffer, from)).as("%s from %d", java.util.Arrays.toString(bytes), from)
						.isEqualTo(byteByByte(bytes, from));
				}
			}
		}
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
