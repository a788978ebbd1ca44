package dev.tether.supervisor.testsupport;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.tether.supervisor.ChildSpec;
import dev.tether.supervisor.Supervisor;
import dev.tether.supervisor.SupervisorBuilder;
import dev.tether.supervisor.registry.FileChildRegistry;

/**
 * A second JVM running a real {@link Supervisor}, ticked every 20 ms (unless told not
 * to), over children that run one shell script (by default {@link #TREE}: each leaves a
 * background grandchild and a daemon in a session of its own). Prints
 * {@code BACKEND <native backend>},
 * {@code MECHANISM <parent-death mechanism> <descendants>} and {@code STARTED} once every
 * child is running, then waits to be killed.
 * <p>
 * Arguments:
 * {@code <installation-id> <state-directory> <children> [<contain-descendants> <script> [<tick>
 * [<added-at-runtime> [<stdio>]]]]}: with {@code added-at-runtime} {@code true}, the
 * supervisor is built without children and each is added once it runs
 * ({@link Supervisor#add}); with {@code stdio} {@code true}, each child's stdin and
 * stdout are pipes to this JVM, which never reads them.
 */
public final class TreeSupervisorJvm {

	/**
	 * The command of every child: a grandchild, a daemon in a new session, then waiting
	 * for both.
	 */
	public static final String TREE = "sleep 600 & setsid sleep 600 & wait";

	private TreeSupervisorJvm() {
	}

	public static void main(String[] args) throws Exception {
		Path state = Path.of(args[1]);
		SupervisorBuilder builder = Supervisor.builder()
			.installationId(args[0])
			.launcherDirectory(state.resolve("launcher"))
			.registry(FileChildRegistry.open(state))
			.logDirectory(state.resolve("logs"));
		int children = Integer.parseInt(args[2]);
		boolean containDescendants = (args.length <= 3) || Boolean.parseBoolean(args[3]);
		String script = (args.length > 4) ? args[4] : TREE;
		boolean tick = (args.length <= 5) || Boolean.parseBoolean(args[5]);
		boolean addedAtRuntime = (args.length > 6) && Boolean.parseBoolean(args[6]);
		boolean stdio = (args.length > 7) && Boolean.parseBoolean(args[7]);
		List<ChildSpec> specs = new ArrayList<>();
		for (int i = 0; i < children; i++) {
			specs.add(ChildSpec.builder("tree-" + i, List.of("sh", "-c", script))
				.workingDirectory(state)
				.containDescendants(containDescendants)
				.stdio(stdio)
				.build());
		}
		if (!addedAtRuntime) {
			specs.forEach(builder::child);
		}
		Supervisor supervisor = builder.build();
		if (tick) {
			ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
			ticker.scheduleWithFixedDelay(supervisor::tick, 20, 20, TimeUnit.MILLISECONDS);
		}
		supervisor.startAutostart();
		if (addedAtRuntime) {
			specs.forEach(supervisor::add);
		}
		System.out.println("BACKEND " + supervisor.nativeBackend());
		System.out.println("MECHANISM " + supervisor.parentDeathMechanism().id() + " "
				+ supervisor.parentDeathMechanism().descendants());
		System.out.println("STARTED " + children);
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
