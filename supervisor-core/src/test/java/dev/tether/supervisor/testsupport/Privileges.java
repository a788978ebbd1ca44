package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;

/**
 * What this JVM may give its children. Where it has {@code CAP_SYS_RESOURCE} every limit
 * and OOM score is its to give, so a test of a refused value is skipped, and the reason
 * printed.
 */
public final class Privileges {

	private static final int CAP_SYS_RESOURCE = 24;

	private Privileges() {
	}

	/** Skips the calling test unless this JVM lacks {@code CAP_SYS_RESOURCE}. */
	public static void assumeWithoutSysResource() throws IOException {
		boolean privileged = Files.readAllLines(Path.of("/proc/self/status"))
			.stream()
			.filter((line) -> line.startsWith("CapEff:"))
			.anyMatch((line) -> (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << CAP_SYS_RESOURCE)) != 0);
		if (privileged) {
			System.out.println("Skipped: this JVM has CAP_SYS_RESOURCE, so every limit and score is its to give");
		}
		Assumptions.assumeFalse(privileged, "this JVM has CAP_SYS_RESOURCE");
	}

	/**
	 * The hard limit of a row of this JVM's {@code /proc/self/limits}
	 * ({@code Max open files}, ...).
	 */
	public static String hardLimit(String row) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
			if (line.startsWith(row + " ")) {
				return line.substring(26).trim().split("\\s+")[1];
			}
		}
		throw new IllegalStateException("no row '" + row + "' in /proc/self/limits");
	}

}
