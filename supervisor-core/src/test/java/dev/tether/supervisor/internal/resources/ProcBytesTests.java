package dev.tether.supervisor.internal.resources;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The byte parsers read {@code /proc} files from bytes as a read left them in a larger
 * buffer: only up to the read's length.
 */
class ProcBytesTests {

	@Test
	void usageIsReadAfterTheLastParenthesis() {
		String stat = "4242 (a) b (c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 7 3 20 0 1 0 12345 10000000 321 "
				+ "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
		assertThat(ProcBytes.usage(bytes(stat, 64), stat.length()))
			.isEqualTo(new ProcBytes.ProcUsage(250, 50, 7, 3, 1, false));
		String threads = "7 (java) S 1 7 7 0 -1 0 0 0 0 0 12 34 -1 0 20 0 42 0 9 1 1";
		assertThat(ProcBytes.usage(bytes(threads, 0), threads.length()))
			.isEqualTo(new ProcBytes.ProcUsage(12, 34, -1, 0, 42, false));
		String zombie = "9 (sh) Z 1 9 9 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 9 0 0";
		assertThat(ProcBytes.usage(bytes(zombie, 0), zombie.length()).zombie()).isTrue();
	}

	@Test
	void aCutOrMalformedStatDoesNotParse() {
		for (String stat : List.of("4242 (cut", "4242 (a) S 1 2 3",
				"4242 (a) S 1 4242 4242 0 -1 0 0 0 0 0 x 50 7 3 20 0 1", "")) {
			assertThat(ProcBytes.usage(bytes(stat, 16), stat.length())).as(stat).isNull();
		}
	}

	@Test
	void residentPagesAreTheSecondFieldOfStatm() {
		String statm = "2710 402 340 40 0 112 0\n";
		assertThat(ProcBytes.residentPages(bytes(statm, 100), statm.length())).isEqualTo(402);
		assertThat(ProcBytes.residentPages(bytes("0 0 0 0 0 0 0", 0), 13)).isZero();
		for (String malformed : List.of("2710", "2710 ", "2710 x 340", "2710 4x2 340", "")) {
			assertThat(ProcBytes.residentPages(bytes(malformed, 0), malformed.length())).as(malformed).isEqualTo(-1);
		}
		// Why: bytes past the length are an earlier read's, never this file's.
		String earlier = "2710 402 340 40 0 112 0\n";
		assertThat(ProcBytes.residentPages(earlier.getBytes(StandardCharsets.US_ASCII), 7)).isEqualTo(40);
	}

	@Test
	void childrenAreTheNumbersOfTheList() {
		List<Long> pids = new ArrayList<>();
		String list = "12 345 6789 ";
		ProcBytes.pids(bytes(list + "999 ", 0), list.length(), pids::add);
		assertThat(pids).containsExactly(12L, 345L, 6789L);
		pids.clear();
		ProcBytes.pids(new byte[8], 0, pids::add);
		assertThat(pids).isEmpty();
	}

	/**
	 * {@code text} in ASCII followed by {@code slack} bytes of noise, as a reused buffer
	 * holds it.
	 */
	private static byte[] bytes(String text, int slack) {
		byte[] content = text.getBytes(StandardCharsets.US_ASCII);
		byte[] bytes = new byte[content.length + slack];
		System.arraycopy(content, 0, bytes, 0, content.length);
		for (int i = content.length; i < bytes.length; i++) {
			bytes[i] = (byte) ('0' + i % 10);
		}
		return bytes;
	}

}
