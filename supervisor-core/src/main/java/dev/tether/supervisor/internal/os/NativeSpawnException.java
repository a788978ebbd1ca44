package dev.tether.supervisor.internal.os;

/**
 * glibc refused a spawn step; the message names the step and the errno.
 */
public class NativeSpawnException extends Exception {

	private final int errno;

	NativeSpawnException(String step, String description) {
		this(step, 0, description);
	}

	NativeSpawnException(String step, int errno, String description) {
		super(step + ": " + description);
		this.errno = errno;
	}

	/**
	 * The errno of the refusal where it is the spawn's own ({@link Posix#EAGAIN}: no
	 * process could be made), else 0.
	 */
	public int errno() {
		return this.errno;
	}

}
