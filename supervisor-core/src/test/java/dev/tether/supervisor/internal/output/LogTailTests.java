package dev.tether.supervisor.internal.output;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The last lines of a log and of its rotated files.
 */
class LogTailTests {

	@TempDir
	Path temp;

	private String tail(Path file, int lines, int maxBytes) throws Exception {
		return new String(LogTail.lastLines(file, lines, maxBytes), StandardCharsets.UTF_8);
	}

	@Test
	void theLastLinesOfOneFile() throws Exception {
		Path log = Files.writeString(this.temp.resolve("a.log"), "1\n2\n3\n4\n");
		assertThat(tail(log, 2, 1024)).isEqualTo("3\n4\n");
		assertThat(tail(log, 4, 1024)).isEqualTo("1\n2\n3\n4\n");
	}

	@Test
	void aShortFileIsContinuedByItsRotatedFiles() throws Exception {
		Path log = Files.writeString(this.temp.resolve("a.log"), "5\n");
		Files.writeString(RotatingFile.rotated(log, 1), "3\n4\n");
		Files.writeString(RotatingFile.rotated(log, 2), "1\n2\n");
		assertThat(tail(log, 4, 1024)).isEqualTo("2\n3\n4\n5\n");
		assertThat(tail(log, 10, 1024)).isEqualTo("1\n2\n3\n4\n5\n");
	}

	@Test
	void theByteLimitKeepsTheNewestWholeLines() throws Exception {
		Path log = Files.writeString(this.temp.resolve("a.log"), "aaaa\nbbbb\ncccc\n");
		assertThat(tail(log, 10, 12)).isEqualTo("bbbb\ncccc\n");
		assertThat(tail(log, 10, 9)).isEqualTo("cccc\n");
		assertThat(tail(log, 10, 3)).isEmpty();
	}

	@Test
	void noFileYetIsAnEmptyTail() throws Exception {
		assertThat(tail(this.temp.resolve("none.log"), 10, 1024)).isEmpty();
	}

	@Test
	void aLastLineWithoutNewlineCounts() throws Exception {
		Path log = Files.writeString(this.temp.resolve("a.log"), "1\n2\n3");
		assertThat(tail(log, 2, 1024)).isEqualTo("2\n3");
	}

}
