package dev.tether.supervisor.registry;

import java.nio.file.Path;

/**
 * Another supervisor holds the state directory.
 */
public class RegistryLockedException extends IllegalStateException {

	RegistryLockedException(Path stateDirectory, String holder, boolean sameJvm) {
		super(sameJvm
				? "state directory " + stateDirectory + " is already used by another supervisor in this JVM (pid "
						+ holder + "), such as a second Spring application context; each supervisor needs its own"
						+ " supervisor.state-directory"
				: "state directory " + stateDirectory + " is locked by another supervisor (pid " + holder
						+ "); each running supervisor needs its own supervisor.state-directory");
	}

}
