package dev.tether.supervisor.internal.os;

/**
 * glibc refused a spawn step; the message names the step and the errno.
 */
public class NativeSpawnException extends Exception {

	NativeSpawnException(String step, String description) {
		super(step + ": " + description);
	}

}
