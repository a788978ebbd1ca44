package dev.tether.supervisor.springai;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lines a stdio MCP server writes to its stdout that are not JSON-RPC: each goes to
 * the child's output sinks (its file, its logger) as a line of its stdout, cut as any
 * other; and they are said in the application's log escaped (no control character reaches
 * a terminal), cut to {@link #SHOWN} characters, and at most {@link #PER_WINDOW} a window
 * of {@link #WINDOW_NANOS}; the lines beyond are counted, and the count said with the
 * next line shown. Why: a server's stdout is untrusted text, and a server that prints to
 * it in a loop must not flood the log.
 */
final class StrayLines {

	static final int SHOWN = 200;

	static final int PER_WINDOW = 5;

	static final long WINDOW_NANOS = 10_000_000_000L;

	private static final Logger logger = LoggerFactory.getLogger(StdioChildTransport.class);

	private final String name;

	private final Consumer<byte[]> sinks;

	private long windowStart = System.nanoTime();

	private int shownInWindow;

	private long dropped;

	StrayLines(String name, Consumer<byte[]> sinks) {
		this.name = name;
		this.sinks = sinks;
	}

	/** Called by the one thread that reads the server's stdout. */
	void received(byte[] line) {
		this.sinks.accept(line);
		long now = System.nanoTime();
		if (now - this.windowStart >= WINDOW_NANOS) {
			this.windowStart = now;
			this.shownInWindow = 0;
		}
		if (this.shownInWindow >= PER_WINDOW) {
			this.dropped++;
			return;
		}
		this.shownInWindow++;
		String skipped = (this.dropped > 0) ? " (" + this.dropped + " such lines not shown before it)" : "";
		this.dropped = 0;
		logger.warn("MCP server '{}' wrote a line that is not JSON-RPC to its stdout{}: {}", this.name, skipped,
				escaped(line));
	}

	static String escaped(byte[] line) {
		String text = new String(line, 0, Math.min(line.length, SHOWN * 4), StandardCharsets.UTF_8);
		StringBuilder out = new StringBuilder(Math.min(text.length(), SHOWN) + 16);
		int shown = 0;
		for (int i = 0; i < text.length() && shown < SHOWN; i++, shown++) {
			char c = text.charAt(i);
			if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		if (shown < text.length() || line.length > SHOWN * 4) {
			out.append("... (").append(line.length).append(" bytes)");
		}
		return out.toString();
	}

}
