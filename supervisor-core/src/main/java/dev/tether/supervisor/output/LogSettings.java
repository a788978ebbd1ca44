package dev.tether.supervisor.output;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;
import org.slf4j.event.Level;

/**
 * Where a child's output goes. The defaults are {@code ChildSpecBuilder}'s.
 *
 * @param file the file stdout and stderr are appended to, or {@code null} for the
 * supervisor's default ({@code <state-directory>/logs/<name>.log})
 * @param fileEnabled whether the lines are written to that file
 * @param maxSize the size in bytes past which the file is rotated (no line is split
 * across files)
 * @param maxHistory how many rotated files are kept ({@code <file>.1} the newest, up to
 * {@code <file>.<maxHistory>})
 * @param logger whether each line is also logged through SLF4J, under the logger
 * {@code tether.child.<name>}
 * @param stderrLevel the level of stderr lines in that logger (stdout lines are
 * {@code INFO})
 * @param maxLineLength the bytes after which a line is cut, with a marker; the rest
 * follows as the next line
 */
public record LogSettings(@Nullable Path file, boolean fileEnabled, long maxSize, int maxHistory, boolean logger,
		Level stderrLevel, int maxLineLength) {
}
