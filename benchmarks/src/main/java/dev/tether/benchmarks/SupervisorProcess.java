package dev.tether.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.tether.supervisor.spawn.SpawnRequest;
import dev.tether.supervisor.spawn.Spawner;

/**
 * The supervisor JVM the benchmark kills with SIGKILL: spawns {@code <count>} children, prints {@code PIDS ...},
 * then waits. Arguments: {@code <count> <work-directory>}.
 */
public final class SupervisorProcess {

	private SupervisorProcess() {
	}

	public static void main(String[] args) throws Exception {
		int count = Integer.parseInt(args[0]);
		Spawner spawner = new Spawner(15, Path.of(args[1]).resolve("launcher"));
		StringBuilder pids = new StringBuilder("PIDS");
		for (int i = 0; i < count; i++) {
			pids.append(' ')
				.append(spawner.spawn(new SpawnRequest(List.of("sleep", "600"), System.getenv(), null, Path.of("/dev/null"),
						null), (pid, status) -> {
						}).pid());
		}
		System.out.println(pids);
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
