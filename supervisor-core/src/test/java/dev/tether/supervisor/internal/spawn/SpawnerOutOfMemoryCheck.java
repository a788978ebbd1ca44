package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.reaper.Reaper;

/**
 * Run in a JVM with a small heap: spawns a first child, then a spawn whose environment
 * needs more heap than there is on the spawner thread, then a second child; prints what
 * happened, ends its children, and exits.
 * {@code SpawnerOutOfMemoryCheck <launcher-directory> <log-directory>}.
 */
public final class SpawnerOutOfMemoryCheck {

	private SpawnerOutOfMemoryCheck() {
	}

	public static void main(String[] args) throws Exception {
		Path logs = Path.of(args[1]);
		Spawner spawner = new Spawner(15, Path.of(args[0]));
		Map<String, String> environment = new HashMap<>(System.getenv());
		long first = spawner
			.spawn(new SpawnRequest(List.of("sleep", "600"), environment, null, logs.resolve("first.log"), null),
					(pid, status) -> {
					})
			.pid();
		System.out.println("FIRST " + first);
		// Why this size: the caller holds it once; the spawner thread needs it twice more
		// (the entry, its bytes).
		Map<String, String> huge = new HashMap<>(environment);
		huge.put("HUGE", "x".repeat((int) (Runtime.getRuntime().maxMemory() / 3)));
		String outcome;
		try {
			spawner.spawn(new SpawnRequest(List.of("sleep", "600"), huge, null, logs.resolve("huge.log"), null),
					(pid, status) -> {
					});
			outcome = "spawned";
		}
		catch (SpawnException ex) {
			outcome = String.valueOf(ex.getCause());
		}
		huge = null;
		System.out.println("HUGE " + outcome.replace('\n', ' '));
		System.out.println("FIRST_ALIVE " + ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false));
		long second = spawner
			.spawn(new SpawnRequest(List.of("sleep", "600"), environment, null, logs.resolve("second.log"), null),
					(pid, status) -> {
					})
			.pid();
		System.out.println("SECOND " + second);
		Reaper.shared().signalGroupUnreaped(first, Posix.SIGKILL);
		Reaper.shared().signalGroupUnreaped(second, Posix.SIGKILL);
		System.out.println("DONE 1");
		System.out.flush();
		System.exit(0);
	}

}
