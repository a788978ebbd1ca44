package dev.tether.supervisor.boot;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;
import org.slf4j.event.Level;
import org.springframework.util.unit.DataSize;

/**
 * Where a child's output goes: {@code supervisor.children.<name>.log.*} and
 * {@code supervisor.defaults.log.*}. Every setting is {@code null} unless set, so that a
 * child's own value, the defaults' and the contract's can be told apart.
 */
public class ChildLogProperties {

	/**
	 * File the child's stdout and stderr are appended to, line by line. Defaults to
	 * <state-directory>/logs/<name>.log.
	 */
	private @Nullable Path file;

	/**
	 * Whether the child's lines are written to its file. Defaults to true.
	 */
	private @Nullable Boolean fileEnabled;

	/**
	 * Size past which the file is rotated to <file>.1 (no line is split across files).
	 * Defaults to 10MB.
	 */
	private @Nullable DataSize maxSize;

	/**
	 * How many rotated files are kept (<file>.1 the newest). Defaults to 7.
	 */
	private @Nullable Integer maxHistory;

	/**
	 * Whether each line is also logged through the application's logging, under the
	 * logger 'tether.child.<name>', with the child's name in the MDC ('tether.child').
	 * Defaults to false.
	 */
	private @Nullable Boolean logger;

	/**
	 * Level of the child's stderr lines in that logger (stdout lines are INFO). Defaults
	 * to WARN.
	 */
	private @Nullable Level stderrLevel;

	/**
	 * Length past which a line is cut, with a marker; the rest follows as the next line.
	 * Defaults to 16KB.
	 */
	private @Nullable DataSize maxLineLength;

	public @Nullable Path getFile() {
		return this.file;
	}

	public void setFile(@Nullable Path file) {
		this.file = file;
	}

	public @Nullable Boolean getFileEnabled() {
		return this.fileEnabled;
	}

	public void setFileEnabled(@Nullable Boolean fileEnabled) {
		this.fileEnabled = fileEnabled;
	}

	public @Nullable DataSize getMaxSize() {
		return this.maxSize;
	}

	public void setMaxSize(@Nullable DataSize maxSize) {
		this.maxSize = maxSize;
	}

	public @Nullable Integer getMaxHistory() {
		return this.maxHistory;
	}

	public void setMaxHistory(@Nullable Integer maxHistory) {
		this.maxHistory = maxHistory;
	}

	public @Nullable Boolean getLogger() {
		return this.logger;
	}

	public void setLogger(@Nullable Boolean logger) {
		this.logger = logger;
	}

	public @Nullable Level getStderrLevel() {
		return this.stderrLevel;
	}

	public void setStderrLevel(@Nullable Level stderrLevel) {
		this.stderrLevel = stderrLevel;
	}

	public @Nullable DataSize getMaxLineLength() {
		return this.maxLineLength;
	}

	public void setMaxLineLength(@Nullable DataSize maxLineLength) {
		this.maxLineLength = maxLineLength;
	}

}
