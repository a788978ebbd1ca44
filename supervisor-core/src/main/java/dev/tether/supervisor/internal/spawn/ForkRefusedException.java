package dev.tether.supervisor.internal.spawn;

import dev.tether.supervisor.SpawnException;

/**
 * The kernel made no process for the spawn ({@code EAGAIN}): a limit that counts
 * processes is reached, which the message names with its numbers. Nothing is wrong with
 * the child; it can start once a process ends.
 */
public final class ForkRefusedException extends SpawnException {

	ForkRefusedException(String message, Throwable cause) {
		super(message, cause);
	}

}
