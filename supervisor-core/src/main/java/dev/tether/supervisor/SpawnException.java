package dev.tether.supervisor;

/**
 * A spawn failed; the message names what was wrong (the executable, the directory, the
 * log file).
 */
public class SpawnException extends Exception {

	public SpawnException(String message) {
		super(message);
	}

	public SpawnException(String message, Throwable cause) {
		super(message, cause);
	}

}
