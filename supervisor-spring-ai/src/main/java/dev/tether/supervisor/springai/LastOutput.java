package dev.tether.supervisor.springai;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.tether.supervisor.Supervisor;

/**
 * The last lines a child wrote to its log file (a stdio server's stderr), escaped and
 * bounded: at most {@value #LINES} lines of the last {@value #BYTES} bytes, each cut as
 * {@link StrayLines#escaped} cuts. Why: the reason a server does not start or initialise
 * ("cannot read /srv/config", "npm ERR! 404") is there, not in its exit status.
 */
final class LastOutput {

	static final int LINES = 5;

	static final int BYTES = 2048;

	private LastOutput() {
	}

	/** The lines, oldest first; empty when there are none or the file cannot be read. */
	static List<String> of(Supervisor supervisor, String name) {
		byte[] lines;
		try {
			lines = supervisor.output(name).map((output) -> {
				try {
					return output.lastLines(LINES, BYTES);
				}
				catch (IOException ex) {
					return new byte[0];
				}
			}).orElse(new byte[0]);
		}
		catch (RuntimeException ex) {
			return List.of();
		}
		List<String> text = new ArrayList<>();
		int start = 0;
		for (int i = 0; i <= lines.length; i++) {
			if (i == lines.length || lines[i] == '\n') {
				if (i > start) {
					text.add(StrayLines.escaped(Arrays.copyOfRange(lines, start, i)));
				}
				start = i + 1;
			}
		}
		return text;
	}

}
