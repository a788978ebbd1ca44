package dev.tether.supervisor.internal.output;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/**
 * Logs each line of a child's output through SLF4J, under the logger
 * {@code tether.child.<name>}: stdout lines at {@code INFO}, stderr lines at the
 * configured level, each with its stream's marker, and the child's name and stream in the
 * MDC ({@code tether.child}, {@code tether.stream}) so that structured logging carries
 * them. Control characters are escaped (see {@link #text}); the file keeps the bytes as
 * they are.
 */
final class LoggerSink {

	/** The MDC key that holds the child's name. */
	static final String MDC_CHILD = "tether.child";

	/** The MDC key that holds the stream, {@code stdout} or {@code stderr}. */
	static final String MDC_STREAM = "tether.stream";

	private final Logger logger;

	private final String child;

	private final Level stderrLevel;

	LoggerSink(String child, Level stderrLevel) {
		this.logger = LoggerFactory.getLogger("tether.child." + child);
		this.child = child;
		this.stderrLevel = stderrLevel;
	}

	/**
	 * Logs every line of {@code lines} (complete lines, from its position to its limit);
	 * the buffer is not moved.
	 */
	void log(Stream stream, ByteBuffer lines) {
		Level level = (stream == Stream.STDOUT) ? Level.INFO : this.stderrLevel;
		if (!this.logger.isEnabledForLevel(level)) {
			return;
		}
		MDC.put(MDC_CHILD, this.child);
		MDC.put(MDC_STREAM, stream.id());
		try {
			int start = lines.position();
			for (int newline = LineSplitter.indexOfNewline(lines, start); newline >= 0; newline = LineSplitter
				.indexOfNewline(lines, start)) {
				this.logger.atLevel(level).addMarker(stream.marker()).log(text(lines, start, newline));
				start = newline + 1;
			}
		}
		finally {
			MDC.remove(MDC_CHILD);
			MDC.remove(MDC_STREAM);
		}
	}

	/**
	 * The line's bytes as text: invalid UTF-8 becomes U+FFFD, a trailing carriage return
	 * is dropped, and every other control character but tab (C0, DEL, C1) is written as a
	 * backslash, {@code u} and its four hexadecimal digits (ESC as {@code u001B} after
	 * the backslash), as JSON writes it. Why: a carriage return, an escape sequence or a
	 * NUL reaching a console raw would let a child overwrite the prefix of its line with
	 * a fake one.
	 */
	private static String text(ByteBuffer lines, int start, int newline) {
		int end = (newline > start && lines.get(newline - 1) == '\r') ? newline - 1 : newline;
		byte[] bytes = new byte[end - start];
		lines.get(start, bytes);
		String text = new String(bytes, StandardCharsets.UTF_8);
		int first = 0;
		while (first < text.length() && !escaped(text.charAt(first))) {
			first++;
		}
		if (first == text.length()) {
			return text;
		}
		StringBuilder escaped = new StringBuilder(text.length() + 16).append(text, 0, first);
		for (int i = first; i < text.length(); i++) {
			char c = text.charAt(i);
			if (escaped(c)) {
				escaped.append(String.format("\\u%04X", (int) c));
			}
			else {
				escaped.append(c);
			}
		}
		return escaped.toString();
	}

	private static boolean escaped(char c) {
		return c != '\t' && Character.isISOControl(c);
	}

}
