package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The deletion of rotated-out files: the name goes at once, the file is closed (its pages
 * freed) by the deleter's thread soon after, and what is not a log file is deleted as a
 * name, never followed.
 */
@EnabledOnOs(OS.LINUX)
class LogDeleterTests {

	private static final Duration PROMPTLY = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	@Test
	void theNameGoesAtOnceAndTheFileIsClosedSoonAfterMoreThanTheDeleterHoldsAtOnce() throws Exception {
		List<Path> files = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			Path file = this.temp.resolve("old-" + i + ".log");
			Files.write(file, new byte[64 * 1024]);
			files.add(file);
		}
		for (Path file : files) {
			LogDeleter.delete(file);
			assertThat(file).doesNotExist();
		}
		await().atMost(PROMPTLY).until(() -> openDescriptorsTo(this.temp).isEmpty());
		assertThat(Thread.getAllStackTraces().keySet())
			.anyMatch((thread) -> thread.getName().equals(LogDeleter.THREAD));
	}

	@Test
	void aMissingFileIsNothingToDelete() throws Exception {
		LogDeleter.delete(this.temp.resolve("none.log"));
		assertThat(this.temp).isEmptyDirectory();
	}

	@Test
	void aLinkIsDeletedAsANameAndItsTargetIsLeftAlone() throws Exception {
		Path target = Files.writeString(this.temp.resolve("target"), "kept\n");
		Path link = Files.createSymbolicLink(this.temp.resolve("old.log"), target);
		LogDeleter.delete(link);
		assertThat(link).doesNotExist();
		assertThat(target).hasContent("kept");
	}

	/** The descriptors of this JVM open to a file that was in {@code directory}. */
	private static List<String> openDescriptorsTo(Path directory) throws IOException {
		List<String> open = new ArrayList<>();
		try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
			for (Path descriptor : descriptors.toList()) {
				try {
					String target = Files.readSymbolicLink(descriptor).toString();
					if (target.startsWith(directory.toString())) {
						open.add(target);
					}
				}
				catch (IOException ex) {
					// Closed meanwhile (the listing's own descriptor among them).
				}
			}
		}
		return open;
	}

}
