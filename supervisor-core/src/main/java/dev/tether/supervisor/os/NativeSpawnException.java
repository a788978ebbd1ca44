package dev.tether.supervisor.os;

/**
 * glibc refused a spawn step; carries the errno.
 */
public class NativeSpawnException extends Exception {

	private final int errno;

	public NativeSpawnException(String step, int errno, String description) {
		super(step + ": " + description);
		this.errno = errno;
	}

	/** The errno glibc returned (0 when the failure was not a libc call). */
	public int errno() {
		return this.errno;
	}

}
