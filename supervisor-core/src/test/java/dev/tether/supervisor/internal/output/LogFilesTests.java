package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.testsupport.Fifo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The rule every open of a log file keeps, for its writer, its rotation and its tail:
 * regular files of this user only, created owner-only, never through a link, never a
 * FIFO, never in a directory others can change.
 */
@EnabledOnOs(OS.LINUX)
class LogFilesTests {

	private static final Duration PROMPTLY = Duration.ofSeconds(20);

	private static final int OTHER_USER = 65534;

	@TempDir
	Path temp;

	private static void write(RotatingFile file, String lines) throws IOException {
		file.write(ByteBuffer.wrap(lines.getBytes(StandardCharsets.UTF_8)));
	}

	private static String mode(Path path) throws IOException {
		return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
	}

	@Test
	void aNewFileIsOwnerOnlyAndSoIsTheOneEachRotationStarts() throws Exception {
		Path log = this.temp.resolve("a.log");
		RotatingFile file = new RotatingFile(log, 10, 2);
		write(file, "1234567\n");
		assertThat(mode(log)).isEqualTo("rw-------");
		write(file, "abcdefg\n");
		file.close();
		assertThat(log).hasContent("abcdefg");
		assertThat(RotatingFile.rotated(log, 1)).hasContent("1234567");
		assertThat(mode(log)).isEqualTo("rw-------");
	}

	@Test
	void aFileOwnedByAnotherUserIsRefusedAndLeftAlone() throws Exception {
		assumeRoot();
		Path log = Files.writeString(this.temp.resolve("theirs.log"), "theirs\n");
		Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-rw-rw-"));
		Files.setAttribute(log, "unix:uid", OTHER_USER);
		RotatingFile file = new RotatingFile(log, 1024, 1);
		assertThatIOException().isThrownBy(() -> write(file, "secret\n"))
			.withMessage(log + " is owned by uid " + OTHER_USER + ", not by this process's uid 0; move it aside (a log"
					+ " file is only used when it is this user's own)");
		assertThat(log).hasContent("theirs");
	}

	@Test
	void aFileWithAnotherNameIsRefused() throws Exception {
		Path elsewhere = Files.writeString(this.temp.resolve("elsewhere"), "precious\n");
		Path log = Files.createLink(this.temp.resolve("linked.log"), elsewhere);
		RotatingFile file = new RotatingFile(log, 1024, 1);
		assertThatIOException().isThrownBy(() -> write(file, "appended\n"))
			.withMessage(log + " has 2 hard links; a log file must have no other name");
		assertThat(elsewhere).hasContent("precious");
	}

	@Test
	void aDirectoryOthersCanWriteIsRefused() throws Exception {
		Path shared = Files.createDirectory(this.temp.resolve("shared"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		RotatingFile file = new RotatingFile(shared.resolve("a.log"), 1024, 1);
		assertThatIOException().isThrownBy(() -> write(file, "secret\n"))
			.withMessageContaining(shared.toString())
			.withMessageContaining("writable by its group or by others");
		assertThat(shared).isEmptyDirectory();
	}

	@Test
	void aDirectoryRemovedBetweenRotationsIsCreatedAgainAndOneMadeSharedIsRefusedAtTheNextOpening() throws Exception {
		Path directory = this.temp.resolve("logs");
		Path log = directory.resolve("a.log");
		RotatingFile file = new RotatingFile(log, 10, 1);
		write(file, "1234567\n");
		file.close();
		write(file, "abcdefg\n");
		try (Stream<Path> files = Files.list(directory)) {
			for (Path each : files.toList()) {
				Files.delete(each);
			}
		}
		Files.delete(directory);
		// Why the rotation fails: the file it renames is gone with its directory.
		assertThatIOException().isThrownBy(() -> write(file, "rotated\n"));
		write(file, "written\n");
		assertThat(log).hasContent("written");
		file.close();
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
		assertThatIOException().isThrownBy(() -> write(file, "secret\n"))
			.withMessageContaining("writable by its group or by others");
	}

	@Test
	void aStickySharedDirectoryHoldsOurFileButNotAnotherUsers() throws Exception {
		assumeRoot();
		Path shared = Files.createDirectory(this.temp.resolve("sticky"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		Files.setAttribute(shared, "unix:mode", 01777);
		Path ours = shared.resolve("ours.log");
		RotatingFile file = new RotatingFile(ours, 1024, 1);
		write(file, "ours\n");
		file.close();
		assertThat(ours).hasContent("ours");
		Path theirs = Files.writeString(shared.resolve("theirs.log"), "");
		Files.setAttribute(theirs, "unix:uid", OTHER_USER);
		assertThatIOException().isThrownBy(() -> write(new RotatingFile(theirs, 1024, 1), "secret\n"))
			.withMessageStartingWith(theirs + " is owned by uid " + OTHER_USER);
		assertThat(theirs).isEmptyFile();
	}

	@Test
	void aFifoAmongTheRotatedFilesIsRefusedAtOnceByTheTail() throws Exception {
		Path log = Files.writeString(this.temp.resolve("a.log"), "3\n");
		Path fifo = RotatingFile.rotated(log, 1);
		Fifo.make(fifo);
		IOException refused = assertTimeoutPreemptively(PROMPTLY,
				() -> assertThrows(IOException.class, () -> LogTail.lastLines(log, 10, 1024)));
		assertThat(refused).hasMessage(fifo + " is a FIFO, which is never opened as a log");
	}

	@Test
	void aLinkAmongTheRotatedFilesIsRefusedByTheTail() throws Exception {
		Path log = Files.writeString(this.temp.resolve("a.log"), "3\n");
		Path victim = Files.writeString(this.temp.resolve("victim"), "precious\n");
		Path link = Files.createSymbolicLink(RotatingFile.rotated(log, 1), victim);
		assertThatIOException().isThrownBy(() -> LogTail.lastLines(log, 10, 1024))
			.withMessage(link + " is a symbolic link, which is never followed");
	}

	@Test
	void aFifoAtTheLogIsRefusedAtOnceByTheWriter() throws Exception {
		Path log = this.temp.resolve("a.log");
		Fifo.make(log);
		RotatingFile file = new RotatingFile(log, 1024, 1);
		assertTimeoutPreemptively(PROMPTLY, () -> assertThatIOException().isThrownBy(() -> write(file, "secret\n"))
			.withMessage(
					log + " is not a regular file (a FIFO, a socket or a device), which is never opened as a log"));
	}

	@Test
	void theCheckBeforeAStartLeavesAMissingFileToItsFirstLineInAPrivateDirectoryAndRefusesWhatTheWriterRefuses()
			throws Exception {
		Path log = this.temp.resolve("logs").resolve("a.log");
		RotatingFile file = new RotatingFile(log, 1024, 1);
		file.check();
		assertThat(log.getParent()).isDirectory();
		assertThat(log).doesNotExist();
		write(file, "first\n");
		file.close();
		assertThat(mode(log)).isEqualTo("rw-------");
		assertThat(log).hasContent("first");
		file.check();
		assertThat(log).hasContent("first");
		Path victim = Files.writeString(this.temp.resolve("victim"), "precious\n");
		Path link = Files.createSymbolicLink(this.temp.resolve("logs").resolve("link.log"), victim);
		assertThatIOException().isThrownBy(() -> new RotatingFile(link, 1024, 1).check())
			.withMessage(link + " is a symbolic link, which is never followed");
		Path linked = Files.createLink(this.temp.resolve("logs").resolve("linked.log"), victim);
		assertThatIOException().isThrownBy(() -> new RotatingFile(linked, 1024, 1).check())
			.withMessage(linked + " has 2 hard links; a log file must have no other name");
		Path fifo = this.temp.resolve("logs").resolve("fifo.log");
		Fifo.make(fifo);
		assertTimeoutPreemptively(PROMPTLY,
				() -> assertThatIOException().isThrownBy(() -> new RotatingFile(fifo, 1024, 1).check())
					.withMessageContaining("not a regular file"));
		assertThat(victim).hasContent("precious");
	}

	@Test
	void theCheckBeforeAStartCreatesTheFileOwnerOnlyInASharedStickyDirectoryWhereAnotherUserCouldPlantOne()
			throws Exception {
		Path shared = Files.createDirectory(this.temp.resolve("sticky"));
		Files.setAttribute(shared, "unix:mode", 01777);
		Path log = shared.resolve("a.log");
		new RotatingFile(log, 1024, 1).check();
		assertThat(mode(log)).isEqualTo("rw-------");
		assertThat(log).isEmptyFile();
	}

	@Test
	void theCheckBeforeAStartRefusesADirectoryThisUserCannotCreateTheFileIn() throws Exception {
		assumeThat(Posix.get().geteuid())
			.as("root may create a file in any directory; run as another user to see "
					+ "a directory without write permission refused")
			.isNotZero();
		Path locked = Files.createDirectory(this.temp.resolve("locked"));
		Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-x------"));
		Path log = locked.resolve("a.log");
		assertThatIOException().isThrownBy(() -> new RotatingFile(log, 1024, 1).check())
			.withMessageStartingWith(log + ": ");
		assertThat(log).doesNotExist();
		Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
	}

	private static void assumeRoot() {
		assumeThat(Posix.get().geteuid()).as("changing a file's owner needs root").isZero();
	}

}
