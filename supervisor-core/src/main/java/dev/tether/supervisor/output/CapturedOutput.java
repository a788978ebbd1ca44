package dev.tether.supervisor.output;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * What a supervisor captured of one child's output: where it goes, how much has passed,
 * and its last lines. Given by {@code Supervisor.output(name)}.
 */
public interface CapturedOutput {

	/** The child's name. */
	String child();

	/** Where its output goes. */
	LogSettings settings();

	/** The file its lines are written to, or {@code null} when the file is off. */
	@Nullable Path file();

	/** The bytes of output received from the child, over its whole life. */
	long bytes();

	/**
	 * The lines of output received from the child, over its whole life (a cut line counts
	 * once per piece).
	 */
	long lines();

	/**
	 * Writes a line the child wrote where its output is not captured (a stray line on the
	 * stdout of a stdio child, whose stdout is a channel to the application) to its
	 * sinks, as a line of its stdout: cut to {@link LogSettings#maxLineLength()}, escaped
	 * by the logger as any other line.
	 * @param line the line, without its line break
	 */
	void writeStdoutLine(byte[] line);

	/**
	 * Reads the last lines of the child's log file and of its rotated files, oldest
	 * first, under the rules its writer keeps (no link followed, regular files only).
	 * @param lines how many lines at most
	 * @param maxBytes how many bytes at most
	 * @return the lines, each ending with a newline; empty when the file is off or not
	 * written yet
	 * @throws IOException naming the file that could not be read
	 */
	byte[] lastLines(int lines, int maxBytes) throws IOException;

	/**
	 * Waits until no process of the child is left writing: every pipe its processes wrote
	 * to has reached its end, and what came through it is in the sinks. Why: an exit is
	 * seen at once, while the last lines the process wrote (often the reason it ended)
	 * may still be in its pipe; read them after this.
	 * @param bound how long to wait at most
	 * @return whether it was reached; {@code false} when a process still holds a pipe
	 * after {@code bound} (a descendant that kept it, or a new process of the child)
	 * @throws InterruptedException when interrupted while waiting
	 */
	boolean awaitDrained(Duration bound) throws InterruptedException;

	/**
	 * Opens the child's current log file to read, under the rules its writer keeps: no
	 * link followed, regular files of this process's user only, and an open that never
	 * waits (a FIFO is refused, not opened). The caller closes it.
	 * @return the file, positioned at its start; empty when the file is off or not
	 * written yet
	 * @throws IOException naming the file when it cannot be read, or is not one a log may
	 * be
	 */
	Optional<SeekableByteChannel> openLog() throws IOException;

}
