package dev.tether.supervisor.internal.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.tether.supervisor.UnsafeDirectoryException;
import dev.tether.supervisor.internal.os.Posix;

/**
 * Checks that only this process's user (and root) can change what a directory holds, as
 * ssh checks the path of a key file. The state directory holds the launcher Tether
 * executes and the files it opens for writing: a directory that another user can write
 * gives that user code execution as the supervisor's user.
 * <p>
 * The rule: every directory from the one checked up to {@code /}, both along the path as
 * given and along its real path (so a symbolic link on the way is judged by where it
 * leads and by who could replace it), must be owned by this process's effective uid or by
 * root, and must not be writable by its group or by others unless it is sticky. Why a
 * sticky directory may be shared ({@code /tmp}): its other users cannot rename or remove
 * an entry they do not own, and the entry below it is held to the same owner rule. Why up
 * to {@code /} rather than up to the first root-owned directory: a root-owned directory
 * inside one that another user can write can be renamed away and replaced by that user.
 */
public final class PrivateDirectory {

	private static final int GROUP_OR_OTHERS_WRITABLE = 0022;

	private static final int STICKY = 01000;

	private static final int FILE_TYPE = 0170000;

	private static final int SYMBOLIC_LINK = 0120000;

	private PrivateDirectory() {
	}

	/**
	 * Checks a directory and every directory above it. Where it does not exist yet, the
	 * check starts at the nearest directory above it that exists: what is created below
	 * that is this user's own.
	 * @throws UnsafeDirectoryException naming the first directory that another user could
	 * change
	 * @throws IOException when a directory's owner or mode cannot be read
	 */
	public static void check(Path directory) throws IOException {
		Path absolute = directory.toAbsolutePath().normalize();
		while (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS) && absolute.getParent() != null) {
			absolute = absolute.getParent();
		}
		Set<Path> chain = new LinkedHashSet<>();
		addWithAncestors(chain, absolute);
		addWithAncestors(chain, absolute.toRealPath());
		int self = effectiveUid();
		for (Path path : chain) {
			checkOne(directory, path, self);
		}
	}

	private static void addWithAncestors(Set<Path> chain, Path path) {
		for (Path current = path; current != null; current = current.getParent()) {
			chain.add(current);
		}
	}

	private static void checkOne(Path checked, Path path, int self) throws IOException {
		// Why one read of both: each is an lstat, for every directory up to the root, at
		// every start of every child whose output goes to a file.
		Map<String, Object> attributes = Files.readAttributes(path, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
		int mode = (int) attributes.get("mode");
		if ((mode & FILE_TYPE) == SYMBOLIC_LINK) {
			// Why: a link's own mode means nothing; who can replace it is decided by its
			// directory, which is checked too, and where it leads is checked along the
			// real path.
			return;
		}
		int owner = (int) attributes.get("uid");
		if (owner != self && owner != 0) {
			throw new UnsafeDirectoryException(checked, path,
					"is owned by uid " + owner + ", not by this process's uid " + self + " or root",
					"Give it to uid " + self + " (chown " + self + " " + path + ")");
		}
		if ((mode & GROUP_OR_OTHERS_WRITABLE) != 0 && (mode & STICKY) == 0) {
			throw new UnsafeDirectoryException(checked, path, "is writable by its group or by others (mode "
					+ String.format("%04o", mode & 07777) + ") and not sticky",
					"Remove that access (chmod go-w " + path + ")");
		}
	}

	/**
	 * The effective uid of this process: {@code geteuid()}, or where the JVM makes no
	 * native call, from {@code /proc/self/status} (real, effective, saved, file system).
	 * Why not the owner of {@code /proc/self}: a process that is not dumpable shows its
	 * {@code /proc} entries as root's. Why the call first: every open of a child's log
	 * checks its directory, and reading and splitting that file at each was a cost per
	 * child at the start of many.
	 */
	public static int effectiveUid() throws IOException {
		Posix posix = Posix.get();
		if (posix.isAvailable()) {
			return posix.geteuid();
		}
		for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
			if (line.startsWith("Uid:")) {
				return Integer.parseInt(line.substring(4).trim().split("\\s+")[1]);
			}
		}
		throw new IOException("/proc/self/status has no Uid line");
	}

}
