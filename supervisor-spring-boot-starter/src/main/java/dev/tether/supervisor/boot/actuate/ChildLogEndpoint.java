package dev.tether.supervisor.boot.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.output.CapturedOutput;

/**
 * {@code /actuator/childlog/{name}}: a child's log file as text, like Boot's
 * {@code logfile} endpoint (HTTP {@code Range} requests included), or with
 * {@code ?lines=N} its last N lines, continued into its rotated files. Read-only. The
 * files are read under their writer's rule (see {@link CapturedOutput#openLog()}): a
 * link, a FIFO or another user's file at a log's path answers 500, and its error names
 * it. A child's output may carry secrets: the endpoint is on the web only when the
 * application exposes it.
 */
@WebEndpoint(id = "childlog", defaultAccess = Access.READ_ONLY)
public class ChildLogEndpoint {

	/** The most lines one tail returns. */
	static final int MAX_LINES = 10_000;

	/** The most bytes one tail returns; a longer one keeps its newest lines. */
	static final int MAX_TAIL_BYTES = 1024 * 1024;

	private final Supervisor supervisor;

	public ChildLogEndpoint(Supervisor supervisor) {
		this.supervisor = supervisor;
	}

	/**
	 * @param name the child
	 * @param lines how many of the last lines, or {@code null} for the whole current file
	 * @return the text, or {@code null} (404) when there is no such child or it has no
	 * log file yet
	 * @throws UncheckedIOException (500) naming the file when it cannot be read, or is
	 * not one a log may be (a link, a FIFO, another user's file): it is never followed,
	 * waited on or served
	 */
	@ReadOperation(produces = "text/plain; charset=UTF-8")
	public @Nullable Resource log(@Selector String name, @Nullable Integer lines) {
		CapturedOutput output = this.supervisor.output(name).orElse(null);
		if (output == null || output.file() == null) {
			return null;
		}
		if (lines != null && (lines < 1 || lines > MAX_LINES)) {
			throw new InvalidEndpointRequestException(
					"lines must be between 1 and " + MAX_LINES + " (was " + lines + ")", "lines out of range");
		}
		try {
			// Why open first: a refused file is answered at once with why, rather than
			// once a response has begun.
			try (SeekableByteChannel current = output.openLog().orElse(null)) {
				if (current == null) {
					return null;
				}
			}
			return (lines != null) ? new ByteArrayResource(output.lastLines(lines, MAX_TAIL_BYTES))
					: new ChildLogResource(output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read the log of child '" + name + "': " + ex.getMessage(), ex);
		}
	}

}
