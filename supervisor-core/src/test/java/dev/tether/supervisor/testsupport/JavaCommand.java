package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a short-lived helper JVM: this JDK's {@code java}, tuned to start fast, then the arguments.
 */
public final class JavaCommand {

	private JavaCommand() {
	}

	public static List<String> of(String... arguments) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-Xshare:auto");
		command.add("-XX:TieredStopAtLevel=1");
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
