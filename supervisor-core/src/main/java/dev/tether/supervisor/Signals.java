package dev.tether.supervisor;

import dev.tether.supervisor.internal.os.Posix;

/**
 * Signal names and numbers as this machine defines them, for settings such as a child's
 * stop signal.
 */
public final class Signals {

	private Signals() {
	}

	/**
	 * The number of a signal given by name ({@code TERM}, {@code SIGTERM}, any case) or
	 * by number (1 to 64).
	 * @throws IllegalArgumentException naming the value when it is no signal here
	 */
	public static int number(String value) {
		return Posix.signalNumber(value);
	}

	/**
	 * The short name of a signal ({@code TERM}), or its number when this machine has no
	 * name for it.
	 */
	public static String name(int number) {
		return Posix.signalName(number);
	}

}
