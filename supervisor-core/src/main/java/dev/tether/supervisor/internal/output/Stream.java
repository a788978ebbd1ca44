package dev.tether.supervisor.internal.output;

import java.util.Locale;

import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/** Which of a child's output streams a line came from. */
public enum Stream {

	/** The child's stdout. */
	STDOUT,

	/** The child's stderr. */
	STDERR;

	private final Marker marker = MarkerFactory.getMarker(name());

	/**
	 * The SLF4J marker of the lines of this stream ({@code STDOUT} or {@code STDERR}).
	 */
	public Marker marker() {
		return this.marker;
	}

	/** The stream's name in the MDC: {@code stdout} or {@code stderr}. */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
