package dev.tether.supervisor.internal.os;

import java.nio.file.Path;
import java.util.List;

/**
 * A JVM that does what a supervisor does natively (spawn into a log, watch the child
 * through a pidfd and epoll, collect its exit), printing {@code BACKEND <name>} and,
 * where there is one, {@code EXIT <code>}.
 */
public final class NativeAccessJvm {

	private NativeAccessJvm() {
	}

	public static void main(String[] args) throws Exception {
		Posix posix = Posix.get();
		System.out.println("BACKEND " + posix.backend());
		if (!posix.isAvailable()) {
			return;
		}
		long pid = PosixSpawn.spawn("sh", List.of("sh", "-c", "echo started; exit 3"), List.of("PATH=/usr/bin:/bin"),
				Path.of("/dev/null"), new PosixSpawn.Output.AppendTo(Path.of(args[0])), null, null);
		int pidfd = posix.pidfdOpen(pid);
		if (pidfd >= 0) {
			Epoll epoll = Epoll.create(posix);
			epoll.add(pidfd);
			epoll.await(30_000);
			posix.close(pidfd);
		}
		Posix.WaitResult result;
		long deadline = System.nanoTime() + 30_000_000_000L;
		while ((result = posix.waitpid(pid)).kind() == Posix.WaitResult.Kind.RUNNING && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		System.out.println("EXIT " + ((result.kind() == Posix.WaitResult.Kind.EXITED) ? (result.status() >> 8) : -1));
	}

}
