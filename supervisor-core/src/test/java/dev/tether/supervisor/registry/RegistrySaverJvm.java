package dev.tether.supervisor.registry;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A second JVM that saves a registry of 2000 rows again and again, each save with one
 * more restart on every row, printing {@code SAVED <n>} after each, until it is killed.
 * Argument: the state directory.
 */
public final class RegistrySaverJvm {

	static final int ROWS = 2000;

	private RegistrySaverJvm() {
	}

	/** The rows of save number {@code n}: every row says {@code restarts = n}. */
	static List<RegistryRow> rows(int n) {
		List<RegistryRow> rows = new ArrayList<>(ROWS);
		for (int i = 0; i < ROWS; i++) {
			rows.add(new RegistryRow("child-" + i, "agent", "saver", 10_000 + i, 10_000 + i, 123_456L + i, "boot",
					"RUNNING", Instant.parse("2026-11-29T08:00:00Z"), n, null));
		}
		return rows;
	}

	public static void main(String[] args) {
		try (FileChildRegistry registry = FileChildRegistry.open(Path.of(args[0]))) {
			for (int n = 0;; n++) {
				registry.save(rows(n));
				System.out.println("SAVED " + n);
				System.out.flush();
			}
		}
	}

}
