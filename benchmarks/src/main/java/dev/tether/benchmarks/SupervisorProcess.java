package dev.tether.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.SpawnedChild;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * The supervisor JVM the benchmark kills with SIGKILL: spawns {@code <count>} children,
 * prints {@code PIDS ...}, then waits. Arguments:
 * {@code <count> <work-directory> <shape>}; shape {@code direct}: each child is a
 * {@code sleep 600} without a shepherd; {@code tree}: each child runs under a shepherd
 * and leaves two descendants, one of them in a session of its own.
 */
public final class SupervisorProcess {

	static final List<String> DIRECT = List.of("sleep", "600");

	static final List<String> TREE = List.of("/bin/sh", "-c", "sleep 600 & setsid sleep 600 & wait");

	private SupervisorProcess() {
	}

	public static void main(String[] args) throws Exception {
		int count = Integer.parseInt(args[0]);
		boolean tree = switch (args[2]) {
			case "direct" -> false;
			case "tree" -> true;
			default -> throw new IllegalArgumentException("shape must be direct or tree, not " + args[2]);
		};
		Spawner spawner = new Spawner(15, Path.of(args[1]).resolve("launcher"));
		StringBuilder pids = new StringBuilder("PIDS");
		for (int i = 0; i < count; i++) {
			SpawnedChild child = spawner.spawn(
					new SpawnRequest(tree ? TREE : DIRECT, System.getenv(), null, Path.of("/dev/null"), null, tree),
					(pid, status) -> {
					});
			pids.append(' ').append(child.pid());
			if (child.shepherd() != tree) {
				// Why no cleanup: this JVM's exit gives every child spawned so far its
				// parent-death signal.
				throw new IllegalStateException(
						"child " + child.pid() + (tree ? " has no shepherd" : " has a shepherd"));
			}
		}
		System.out.println(pids);
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
