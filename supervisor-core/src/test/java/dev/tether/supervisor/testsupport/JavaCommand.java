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
		List<String> command = fastStart(thisJava());
		if (Runtime.version().feature() >= 22) {
			// Why: as the test JVM itself (Surefire's argLine), a helper JVM grants
			// Tether's FFM backend native access, so that no warning of the JDK's mixes
			// with the lines a test reads.
			command.add("--enable-native-access=ALL-UNNAMED");
		}
		command.addAll(List.of(arguments));
		return command;
	}

	/**
	 * A main class of this test class path on the JDK at {@code java}, with exactly
	 * {@code options}: no grant of native access, for the tests that vary it.
	 */
	public static List<String> main(Path java, List<String> options, Class<?> mainClass, String... arguments) {
		List<String> command = fastStart(java);
		command.addAll(options);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
		command.addAll(List.of(arguments));
		return command;
	}

	/** The {@code java} of the JDK running the tests. */
	public static Path thisJava() {
		return Path.of(System.getProperty("java.home"), "bin", "java");
	}

	private static List<String> fastStart(Path java) {
		return new ArrayList<>(List.of(java.toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1"));
	}

	/** A main class of this test class path. */
	public static List<String> main(Class<?> mainClass, String... arguments) {
		List<String> command = of("-cp", System.getProperty("java.class.path"), mainClass.getName());
		command.addAll(List.of(arguments));
		return command;
	}

}
