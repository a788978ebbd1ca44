package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.tether.supervisor.UnsafeDirectoryException;
import dev.tether.supervisor.internal.files.PrivateDirectory;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Every open of a child's log file, by its writer, its rotation and its readers, under
 * one rule: the path must name a regular file owned by this process's user, with no other
 * hard link, reached without following a symbolic link; anything else (a link, a FIFO, a
 * device, a directory, another user's file) fails at once with an {@link IOException}
 * naming the path and why. A file that is missing is created owner-only ({@code 0600}),
 * exclusively, so a file someone plants between a check and the open is refused, never
 * used.
 * <p>
 * Why the open never blocks: opening a FIFO waits for its other end, and the writer opens
 * on the thread that spawns every child. The open is non-blocking ({@code O_NONBLOCK},
 * which a regular file ignores), what was opened is checked through its descriptor
 * ({@code fstat}, which no rename can swap), and only then is it used, reopened as a
 * {@link FileChannel} through {@code /proc/self/fd}, which reaches that very file.
 */
final class LogFiles {

	private static final int COMMON = Posix.O_NOFOLLOW | Posix.O_NONBLOCK | Posix.O_CLOEXEC;

	private static final int OWNER_ONLY = 0600;

	private static final int OWNER_WRITABLE = 0200;

	private static final int GROUP_OR_OTHERS_WRITABLE = 0022;

	// Why a bound: a file removed between the exclusive create and the plain open is
	// looked at again, but a directory changing under every attempt is an attack, not a
	// race to win.
	private static final int ATTEMPTS = 3;

	private LogFiles() {
	}

	/**
	 * Opens a log file to append to, creating it ({@code 0600}) when it is missing.
	 * @throws IOException naming the file and why it cannot be used
	 */
	static FileChannel append(Path file) throws IOException {
		Posix posix = Posix.get();
		if (!posix.isAvailable()) {
			return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
					StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
		}
		return channel(posix, file, openToAppend(posix, file), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
	}

	/**
	 * Checks that a log file can be appended to under the rule, and leaves it closed. A
	 * missing file is left to its first line where its directory is this user's own and
	 * nobody else's to write; elsewhere (a shared sticky directory such as {@code /tmp},
	 * where another user could plant one first) it is created ({@code 0600}) now.
	 * <p>
	 * Why not always created now: creating a file cost 0.25 to 1 ms of CPU on the
	 * machines measured, against 3 µs to open one, at the first start of every child: up
	 * to a second of CPU at the start of 1,000 children. Where only this user (or root)
	 * can add a name to the directory, nothing can stand in the file's place by its first
	 * line, so the start loses no check by leaving it.
	 * @throws IOException naming the file and why it cannot be used
	 */
	static void checkAppendable(Path file) throws IOException {
		Posix posix = Posix.get();
		if (!posix.isAvailable()) {
			append(file).close();
			return;
		}
		// Why no channel: a check needs only the descriptor's own checks, and a channel
		// costs another open (through /proc/self/fd) at every start of every child.
		int fd = posix.open(file.toString(), Posix.O_WRONLY | Posix.O_APPEND | COMMON, 0);
		if (fd == -Posix.ENOENT) {
			if (createdAtFirstLine(posix, file)) {
				return;
			}
			fd = openToAppend(posix, file);
		}
		if (fd < 0) {
			throw refused(file, posix.describe(-fd));
		}
		try {
			checkOpened(posix, file, fd);
		}
		finally {
			posix.close(fd);
		}
	}

	/**
	 * Whether a missing file may wait for its first line: its directory is this process's
	 * user's own, writable by that user and by nobody else, so only this user (or root)
	 * can add a name there, and the first line can.
	 * <p>
	 * Why from the directory's owner and mode, not {@code access()}: that call answers
	 * for the real uid without capabilities, and an application that reaches its
	 * directory through a capability ({@code CAP_DAC_READ_SEARCH}) was told no. Where the
	 * rule does not hold, the file is created now, and the start fails with the create's
	 * own error.
	 */
	private static boolean createdAtFirstLine(Posix posix, Path file) throws IOException {
		Path directory = file.toAbsolutePath().getParent();
		if (directory == null) {
			return false;
		}
		Map<String, Object> attributes = Files.readAttributes(directory, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
		int mode = (int) attributes.get("mode");
		return (int) attributes.get("uid") == posix.geteuid() && (mode & OWNER_WRITABLE) != 0
				&& (mode & GROUP_OR_OTHERS_WRITABLE) == 0;
	}

	/**
	 * A descriptor to append to the file, opened under the rule (created when missing).
	 */
	private static int openToAppend(Posix posix, Path file) throws IOException {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			int fd = posix.open(file.toString(),
					Posix.O_WRONLY | Posix.O_APPEND | Posix.O_CREAT | Posix.O_EXCL | COMMON, OWNER_ONLY);
			if (fd == -Posix.EEXIST) {
				fd = posix.open(file.toString(), Posix.O_WRONLY | Posix.O_APPEND | COMMON, 0);
			}
			if (fd >= 0) {
				return fd;
			}
			if (fd != -Posix.ENOENT) {
				throw refused(file, posix.describe(-fd));
			}
		}
		throw new IOException(file + " keeps disappearing as it is opened");
	}

	/**
	 * Opens a log file to read.
	 * @return the channel, or {@code null} when there is no such file
	 * @throws IOException naming the file and why it cannot be read
	 */
	static @Nullable FileChannel read(Path file) throws IOException {
		Posix posix = Posix.get();
		try {
			if (!posix.isAvailable()) {
				if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
						&& Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
					throw notRegular(file);
				}
				return FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
			}
			int fd = posix.open(file.toString(), Posix.O_RDONLY | COMMON, 0);
			return (fd == -Posix.ENOENT) ? null : channel(posix, file, fd, StandardOpenOption.READ);
		}
		catch (NoSuchFileException ex) {
			return null;
		}
	}

	/**
	 * Checks the directory of a log file as the state directory is checked
	 * ({@link PrivateDirectory}), and creates it when it is missing.
	 * @throws IOException naming the directory
	 */
	static void checkDirectory(Path file) throws IOException {
		Path parent = file.toAbsolutePath().getParent();
		if (parent == null) {
			return;
		}
		try {
			PrivateDirectory.check(parent);
			// Why looked at first: createDirectories on one that exists fails its mkdir
			// and builds an exception, at every start of every child.
			if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
				Files.createDirectories(parent);
			}
		}
		catch (UnsafeDirectoryException ex) {
			throw new IOException(ex.getMessage(), ex);
		}
	}

	private static FileChannel channel(Posix posix, Path file, int fd, StandardOpenOption... options)
			throws IOException {
		if (fd < 0) {
			throw refused(file, posix.describe(-fd));
		}
		try {
			checkOpened(posix, file, fd);
			return FileChannel.open(Path.of("/proc/self/fd/" + fd), options);
		}
		finally {
			posix.close(fd);
		}
	}

	/**
	 * Fails, naming the file, unless it is a regular file of this user with no other
	 * name.
	 */
	private static void checkOpened(Posix posix, Path file, int fd) throws IOException {
		Posix.FileStatus status = posix.fstat(fd);
		int self = posix.geteuid();
		if (!status.regular()) {
			throw new IOException(file + " is " + (status.fifo() ? "a FIFO" : "not a regular file")
					+ ", which is never opened as a log");
		}
		if (status.uid() != self) {
			throw new IOException(file + " is owned by uid " + status.uid() + ", not by this process's uid " + self
					+ "; move it aside (a log file is only used when it is this user's own)");
		}
		if (status.links() != 1) {
			throw new IOException(file + " has " + status.links() + " hard links; a log file must have no other name");
		}
	}

	/**
	 * Why an open failed, said from what the path is (read without following it, and
	 * without opening it).
	 */
	private static IOException refused(Path file, String error) {
		PosixFileAttributes attributes;
		try {
			attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
		}
		catch (IOException | UnsupportedOperationException ex) {
			return new IOException(file + ": " + error);
		}
		if (attributes.isSymbolicLink()) {
			return new IOException(file + " is a symbolic link, which is never followed");
		}
		if (attributes.isOther()) {
			return notRegular(file);
		}
		return new IOException(file + ": " + error);
	}

	private static IOException notRegular(Path file) {
		return new IOException(
				file + " is not a regular file (a FIFO, a socket or a device), which is never opened" + " as a log");
	}

}
