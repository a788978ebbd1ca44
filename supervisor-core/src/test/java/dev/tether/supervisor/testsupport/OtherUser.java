package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;

/**
 * Processes of another user of the machine, for the hostile cases:
 * {@code setpriv --reuid=N --regid=N
 * --clear-groups}, which needs root. Where this JVM is not root or has no
 * {@code setpriv}, the test is skipped, and the reason printed.
 */
public final class OtherUser {

	private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

	/**
	 * Uids no account of these machines has: {@code FIRST_UNSHARED} and the 999 after it.
	 */
	private static final int FIRST_UNSHARED = 64000;

	private static final int UNSHARED = 1000;

	private OtherUser() {
	}

	/**
	 * Skips the calling test, saying why, unless processes can be run as another user
	 * here.
	 */
	public static void assumeAvailable() throws IOException {
		boolean root = Files.readAllLines(Path.of("/proc/self/status"))
			.stream()
			.anyMatch((line) -> line.matches("Uid:\\s+0\\s.*"));
		if (!root || !Files.isExecutable(SETPRIV)) {
			System.out.println("Skipped: running as another uid needs root and " + SETPRIV + " (root: " + root + ")");
			Assumptions.abort("needs root and setpriv to run as another uid");
		}
	}

	/**
	 * The command line that runs {@code command} as {@code uid}, with that gid and no
	 * supplementary groups.
	 */
	public static List<String> command(int uid, List<String> command) {
		List<String> line = new ArrayList<>(
				List.of(SETPRIV.toString(), "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--"));
		line.addAll(command);
		return line;
	}

	/**
	 * A uid that no process runs as now, picked from this JVM's pid in a range no account
	 * has. Why not a fixed one: {@code RLIMIT_NPROC} counts every process of a uid on the
	 * machine, so a test that runs into a process limit would share its count with the
	 * same test of a build running beside it.
	 */
	public static int unsharedUid() throws IOException {
		int start = (int) (ProcessHandle.current().pid() % UNSHARED);
		for (int i = 0; i < UNSHARED; i++) {
			int uid = FIRST_UNSHARED + (start + i) % UNSHARED;
			if (tasks(uid) == 0) {
				return uid;
			}
		}
		throw new IllegalStateException(
				"every uid from " + FIRST_UNSHARED + " to " + (FIRST_UNSHARED + UNSHARED - 1) + " runs a process");
	}

	/**
	 * The processes and threads of {@code uid} now, as {@code RLIMIT_NPROC} counts them.
	 */
	public static long tasks(int uid) throws IOException {
		long tasks = 0;
		try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
			for (Path process : processes) {
				List<String> status;
				try {
					status = Files.readAllLines(process.resolve("status"));
				}
				catch (IOException ex) {
					continue;
				}
				boolean ours = status.stream().anyMatch((line) -> line.matches("Uid:\\s+" + uid + "\\s.*"));
				tasks += ours ? status.stream()
					.filter((line) -> line.startsWith("Threads:"))
					.mapToLong((line) -> Long.parseLong(line.substring(8).trim()))
					.sum() : 0;
			}
		}
		return tasks;
	}

}
