package dev.tether.supervisor.testsupport;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.registry.FileChildRegistry;

/**
 * A second JVM running a {@link Supervisor} over one child, {@code tree}, that runs
 * {@link TreeSupervisorJvm#TREE}. Prints {@code RUNNING <parent-death mechanism>}, then
 * waits for a line on its standard input; then asks the child to reload and prints
 * {@code RELOAD sent} or {@code RELOAD <why not>}, stops it and prints
 * {@code STOPPED <outcome>}, and exits.
 * <p>
 * Arguments: {@code <installation-id> <state-directory>}.
 */
public final class StopOnRequestJvm {

	private StopOnRequestJvm() {
	}

	public static void main(String[] args) throws Exception {
		Path state = Path.of(args[1]);
		ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
		try (FileChildRegistry registry = FileChildRegistry.open(state);
				Supervisor supervisor = SecondJvm.supervisorIn(args[0], state, registry)
					.child(ChildSpec.builder("tree", List.of("sh", "-c", TreeSupervisorJvm.TREE))
						.workingDirectory(state)
						.build())
					.build()) {
			ticker.scheduleWithFixedDelay(supervisor::tick, 20, 20, TimeUnit.MILLISECONDS);
			supervisor.start("tree");
			System.out.println("RUNNING " + supervisor.parentDeathMechanism().id());
			System.out.flush();
			new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
			String reload;
			try {
				supervisor.reload("tree");
				reload = "sent";
			}
			catch (IllegalStateException ex) {
				reload = ex.getMessage();
			}
			System.out.println("RELOAD " + reload);
			System.out.println("STOPPED " + supervisor.stop("tree"));
			System.out.flush();
		}
		finally {
			ticker.shutdown();
			ticker.awaitTermination(5, TimeUnit.SECONDS);
		}
	}

}
