package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.spawn.SpawnRequest;
import dev.tether.supervisor.internal.spawn.Spawner;

/**
 * A second JVM, for tests that kill the spawning JVM with SIGKILL, that spawns children
 * with a bare {@link Spawner} (no supervisor), prints {@code MECHANISM <m>} and
 * {@code PIDS <pid>...}, then waits to be killed.
 * <p>
 * Arguments: {@code <launcher|setpriv> <count> <installation-id> <log-directory>}.
 */
public final class SpawnerJvm {

	private SpawnerJvm() {
	}

	public static void main(String[] args) throws Exception {
		ParentDeathMechanism mechanism = ParentDeathMechanism.valueOf(args[0].toUpperCase());
		int count = Integer.parseInt(args[1]);
		String installationId = args[2];
		Path logs = Path.of(args[3]);
		Spawner spawner = new Spawner(15, EnumSet.of(mechanism), logs.resolve("launcher"));
		StringBuilder pids = new StringBuilder("PIDS");
		for (int i = 0; i < count; i++) {
			String name = "child-" + i;
			Map<String, String> env = ChildMarkers.stamp(System.getenv(), Map.of(),
					new Owner(installationId, "spawner-jvm"), ChildKind.AGENT, name);
			long pid = spawner
				.spawn(new SpawnRequest(List.of("sleep", "600"), env, null, logs.resolve(name + ".log"), null),
						(p, status) -> {
						})
				.pid();
			pids.append(' ').append(pid);
		}
		System.out.println("MECHANISM " + spawner.parentDeathMechanism().id());
		System.out.println(pids);
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
