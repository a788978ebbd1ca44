package dev.tether.supervisor.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;

/**
 * The Python server of the socket activation tests
 * ({@code src/test/resources/socket-activation/served.py}): it serves on the socket it is
 * handed, or binds its port itself with {@code --bind <port>}. Why
 * {@code /usr/bin/python3}: the same interpreter as {@link PythonListener}'s.
 */
public final class ServedScript {

	private static final Path PYTHON = Path.of("/usr/bin/python3");

	private ServedScript() {
	}

	/**
	 * Copies the script into {@code directory} (once) and returns its command; skips the
	 * calling test, saying why, where there is no {@code /usr/bin/python3}.
	 */
	public static List<String> command(Path directory, String... arguments) throws IOException {
		Assumptions.assumeTrue(Files.isExecutable(PYTHON), "needs " + PYTHON);
		Path script = directory.resolve("served.py");
		if (!Files.exists(script)) {
			try (InputStream in = ServedScript.class.getResourceAsStream("/socket-activation/served.py")) {
				Files.copy(in, script);
			}
		}
		List<String> command = new ArrayList<>(List.of(PYTHON.toString(), script.toString()));
		command.addAll(List.of(arguments));
		return command;
	}

}
