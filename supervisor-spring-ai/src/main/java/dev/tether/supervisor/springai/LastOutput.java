package dev.tether.supervisor.springai;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.output.CapturedOutput;

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
		Optional<CapturedOutput> output = supervisor.output(name);
		if (output.isEmpty()) {
			return List.of();
		}
		try {
			return escapedLines(output.get().lastLines(LINES, BYTES));
		}
		catch (IOException ex) {
			// Why nothing: these lines only add to a reason that is given anyway.
			return List.of();
		}
	}

	/**
	 * The lines of a child whose process has ended, once what it wrote last has come
	 * through its pipe (within {@code drain}). Why: its exit is seen at once, and the
	 * reason it gave ("cannot read /srv/config") may still be in the pipe then.
	 */
	static List<String> ofEnded(Supervisor supervisor, String name, Duration drain) {
		Optional<CapturedOutput> output = supervisor.output(name);
		try {
			if (output.isPresent()) {
				output.get().awaitDrained(drain);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return of(supervisor, name);
	}

	private static List<String> escapedLines(byte[] tail) {
		List<String> lines = new ArrayList<>();
		int start = 0;
		for (int i = 0; i <= tail.length; i++) {
			if (i == tail.length || tail[i] == '\n') {
				if (i > start) {
					lines.add(StrayLines.escaped(Arrays.copyOfRange(tail, start, i)));
				}
				start = i + 1;
			}
		}
		return lines;
	}

}
