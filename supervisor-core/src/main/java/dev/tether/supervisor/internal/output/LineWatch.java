package dev.tether.supervisor.internal.output;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Watches one process's output for a line that matches ({@code readiness.log-line}): the
 * pump matches each complete line it already split, on its own thread, until one matches;
 * then the watch is over and costs nothing more. Read by the tick.
 */
public final class LineWatch {

	private final Pattern pattern;

	private volatile boolean matched;

	public LineWatch(Pattern pattern) {
		this.pattern = pattern;
	}

	/** Whether a line matched. */
	public boolean matched() {
		return this.matched;
	}

	/** The regular expression, for logs and errors. */
	public String pattern() {
		return this.pattern.pattern();
	}

	/**
	 * Matches the complete lines from the buffer's position to its limit (the buffer is
	 * not moved).
	 * @return whether one matched
	 */
	boolean scan(ByteBuffer lines) {
		int start = lines.position();
		int limit = lines.limit();
		for (int i = start; i < limit && !this.matched; i++) {
			if (lines.get(i) == '\n' || i == limit - 1) {
				int end = (lines.get(i) == '\n') ? i : i + 1;
				byte[] line = new byte[end - start];
				lines.get(start, line);
				String text = new String(line, StandardCharsets.UTF_8);
				this.matched = this.pattern.matcher(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text)
					.find();
				start = i + 1;
			}
		}
		return this.matched;
	}

}
