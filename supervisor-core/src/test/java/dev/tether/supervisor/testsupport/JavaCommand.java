package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a short-lived helper JVM: this JDK's {@code java}, tuned to start
 * fast, granting native access on JDK 22+, then the arguments.
 */
public final class JavaCommand {

	private JavaCommand() {
	}

	public static List<String> of(String... arguments) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xshare:auto");
		command.add("-XX:TieredStopAtLevel=1");
		if (Runtime.version().feature() >= 22) {
			// Why: as the test JVM itself (Surefire's argLine), a helper JVM grants
			// Tether's FFM backend native access, so that no warning of the JDK's mixes
			// with the lines a test reads.
			command.add("--enable-native-access=ALL-UNNAMED");
		}
		command.addAll(List.of(arguments));
		return command;
	}

	/** A main class of this test class path. */
	public static List<String> main(Class<?> mainClass, String... arguments) {
		List<String> command = of("-cp", System.getProperty("java.class.path"), mainClass.getName());
		command.addAll(List.of(arguments));
		return command;
	}

}
