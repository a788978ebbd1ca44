package dev.tether.supervisor.testsupport;

import java.io.IOException;
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

}
