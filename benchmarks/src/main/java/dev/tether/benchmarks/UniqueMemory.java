package dev.tether.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.tether.supervisor.internal.spawn.Shepherd;

/**
 * The memory a process holds for itself alone: {@code Pss_Anon} from
 * {@code /proc/<pid>/smaps_rollup} (its anonymous pages, each shared page counted in
 * proportion) plus its page tables ({@code VmPTE} from {@code /proc/<pid>/status}). Code
 * and read-only data mapped from files are shared by every process running the same
 * binary and left out.
 */
final class UniqueMemory {

	private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(10);

	private UniqueMemory() {
	}

	/**
	 * The figure, in KB, once the process is what it will stay: a {@code sleep} (the
	 * launcher has exec'd it) or a shepherd that has forked its command.
	 */
	static long settledKb(long pid) throws IOException {
		long deadline = System.nanoTime() + SETTLE_NANOS;
		while (!settled(pid)) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(
						"process " + pid + " neither became sleep nor forked a command in 10 s");
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
		return field(Path.of("/proc", Long.toString(pid), "smaps_rollup"), "Pss_Anon:")
				+ field(Path.of("/proc", Long.toString(pid), "status"), "VmPTE:");
	}

	private static boolean settled(long pid) throws IOException {
		String command = Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip();
		return command.equals("sleep") || Shepherd.commandPid(pid).isPresent();
	}

	private static long field(Path file, String name) throws IOException {
		for (String line : Files.readAllLines(file)) {
			if (line.startsWith(name)) {
				return Long.parseLong(line.substring(name.length()).replace("kB", "").strip());
			}
		}
		throw new IllegalStateException(file + " has no " + name);
	}

}
