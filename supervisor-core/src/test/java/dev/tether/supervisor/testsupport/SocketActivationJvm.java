package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.ChildSnapshot;
import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.ChildState;
import dev.tether.supervisor.SocketActivation;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.registry.FileChildRegistry;

import static org.awaitility.Awaitility.await;

/**
 * A second JVM supervising one socket-activated child, {@code held} ({@code sleep} under
 * a shepherd, its socket on the given port). Prints {@code RUNNING <command pid>} once
 * the child runs, or {@code NOT_STARTED <its lastError>} when it could not be started,
 * then waits to be killed.
 * <p>
 * Arguments: {@code <installation-id> <state-directory> <port>}.
 */
public final class SocketActivationJvm {

	private SocketActivationJvm() {
	}

	public static void main(String[] args) throws Exception {
		Path state = Path.of(args[1]);
		FileChildRegistry registry = FileChildRegistry.open(state);
		Supervisor supervisor = SecondJvm.supervisorIn(args[0], state, registry)
			.child(ChildSpec.builder("held", List.of("sleep", "600"))
				.port(Integer.parseInt(args[2]))
				.socketActivation(new SocketActivation(true, "127.0.0.1", null, 3))
				.build())
			.build();
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
		ticker.scheduleWithFixedDelay(supervisor::tick, 20, 20, TimeUnit.MILLISECONDS);
		supervisor.start("held");
		ChildSnapshot seen = await().atMost(Duration.ofSeconds(60))
			.until(() -> supervisor.snapshot("held").orElseThrow(),
					(child) -> (child.state() == ChildState.RUNNING && child.pid() != null)
							|| (child.pid() == null && child.lastError() != null));
		System.out.println((seen.pid() != null) ? "RUNNING " + seen.pid() : "NOT_STARTED " + seen.lastError());
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
