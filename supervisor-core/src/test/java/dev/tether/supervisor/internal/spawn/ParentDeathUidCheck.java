package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.util.EnumSet;

import dev.tether.supervisor.ParentDeathMechanism;

/**
 * Run in a JVM of its own (possibly as another uid): prints the parent-death mechanism
 * chosen when only the launcher is allowed, extracted under the directory given as the
 * first argument.
 */
public final class ParentDeathUidCheck {

	private ParentDeathUidCheck() {
	}

	public static void main(String[] args) {
		ParentDeath parentDeath = ParentDeath.resolve(15, EnumSet.of(ParentDeathMechanism.LAUNCHER), Path.of(args[0]));
		System.out.println("MECHANISM " + parentDeath.mechanism().id());
	}

}
