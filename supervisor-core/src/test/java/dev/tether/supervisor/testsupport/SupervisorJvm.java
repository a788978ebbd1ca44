package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.ChildEvent;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.registry.FileChildRegistry;

/**
 * A second JVM running a real {@link Supervisor}, ticked every 20 ms, over one child in a
 * restart loop (it lives 200 ms, fails, and is restarted after a 20 ms backoff, forever).
 * Prints {@code STARTED <pid>} for every start, then waits to be killed.
 * <p>
 * Arguments: {@code <installation-id> <state-directory>}.
 */
public final class SupervisorJvm {

	private SupervisorJvm() {
	}

	public static void main(String[] args) throws Exception {
		Path state = Path.of(args[1]);
		ChildSpec looping = ChildSpecs.restartedForever("looping", List.of("sh", "-c", "sleep 0.2; exit 1"),
				Duration.ofMillis(20));
		Supervisor supervisor = Supervisor.builder()
			.installationId(args[0])
			.launcherDirectory(state.resolve("launcher"))
			.registry(FileChildRegistry.open(state))
			.logDirectory(state.resolve("logs"))
			.listener((event) -> {
				if (event.type() == ChildEvent.Type.STARTED) {
					System.out.println("STARTED " + event.child().pid());
					System.out.flush();
				}
			})
			.child(looping)
			.build();
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
		ticker.scheduleWithFixedDelay(supervisor::tick, 20, 20, TimeUnit.MILLISECONDS);
		supervisor.start("looping");
		new CountDownLatch(1).await();
	}

}
