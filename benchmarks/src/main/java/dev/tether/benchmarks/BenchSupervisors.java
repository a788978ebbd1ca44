package dev.tether.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.registry.FileChildRegistry;

/**
 * Supervisors for the rows: each of a state directory and an installation of its own, so
 * that no row's children are ever taken for another's, sharing the run's launcher and log
 * directories.
 */
final class BenchSupervisors {

	private static final AtomicInteger made = new AtomicInteger();

	private BenchSupervisors() {
	}

	/** A builder without children, for the row named {@code row}. */
	static SupervisorBuilder builder(Path work, String row) throws IOException {
		return Supervisor.builder()
			.installationId("bench-" + row + "-" + ProcessHandle.current().pid() + "-" + made.incrementAndGet())
			.launcherDirectory(work.resolve("launcher"))
			.registry(FileChildRegistry.open(Files.createTempDirectory(work, "state")))
			.logDirectory(work.resolve("logs"));
	}

}
