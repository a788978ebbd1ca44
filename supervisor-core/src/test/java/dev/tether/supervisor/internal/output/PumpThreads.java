package dev.tether.supervisor.internal.output;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The pump's threads of this JVM, read through {@code /proc/self/task}: the readers and
 * the deleter, whose names share the 15 characters the kernel keeps of a thread's name.
 */
final class PumpThreads {

	private PumpThreads() {
	}

	/** What {@code read} returns for each of the pump's threads. */
	static <T> List<T> readEach(TaskRead<T> read) throws IOException {
		List<T> values = new ArrayList<>();
		try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
			for (Path task : tasks.toList()) {
				// Why a thread gone meanwhile is skipped: other threads of this JVM (a
				// pool's, the deleter) end between the listing and the read, which then
				// fails with ENOENT at the open or ESRCH at the read; the readers live as
				// long as their pump, so any other failure is kept.
				try {
					if (Files.readString(task.resolve("comm")).trim().equals("supervisor-outp")) {
						values.add(read.read(task));
					}
				}
				catch (IOException ex) {
					if (Files.exists(task)) {
						throw ex;
					}
				}
			}
		}
		return values;
	}

	/** A read of one thread's directory under {@code /proc/self/task}. */
	interface TaskRead<T> {

		T read(Path task) throws IOException;

	}

}
