package dev.tether.supervisor.registry;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * The instance id file: created once, read back, and refused by name when it holds
 * anything else, however large.
 */
class InstanceIdFileTests {

	@TempDir
	Path temp;

	@Test
	void anIdIsCreatedOnceAndReadBack() throws Exception {
		String id = InstanceIdFile.readOrCreate(this.temp);
		assertThat(id).matches("[0-9a-f]{32}");
		assertThat(InstanceIdFile.readOrCreate(this.temp)).isEqualTo(id);
	}

	@Test
	void aHugeFileIsRefusedByNameWithoutBeingRead() throws Exception {
		Path file = this.temp.resolve("instance-id");
		// Why sparse: three gigabytes that take no room on disk, and once read whole
		// would not fit in any heap.
		try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
			huge.setLength(3L * 1024 * 1024 * 1024);
		}
		assertThatIOException().isThrownBy(() -> InstanceIdFile.readOrCreate(this.temp))
			.withMessage(file + " is longer than an instance id (3221225472 bytes); move it aside to start a new"
					+ " instance, which will not recognise the children of the old one");
		assertThat(Files.size(file)).isEqualTo(3L * 1024 * 1024 * 1024);
	}

}
