package dev.tether.supervisor.internal.supervision;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.identity.IdentityProbe;
import dev.tether.supervisor.internal.identity.ProcessSignaller;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.internal.spawn.Shepherd;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a killed shepherd leaves, swept with real processes: its tree is ended, the tree
 * of the same child's current process is spared.
 */
@EnabledOnOs(OS.LINUX)
class OrphanStopsTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	private TestSpawns spawns;

	@BeforeEach
	void createSpawner() {
		this.spawns = new TestSpawns(
				new Spawner(15, EnumSet.of(ParentDeathMechanism.LAUNCHER), this.temp.resolve("launcher")), this.temp);
	}

	@AfterEach
	void endChildren() {
		this.spawns.close();
	}

	@Test
	void sweepEndsWhatAKilledShepherdLeftAndSparesTheTreeOfTheChildsCurrentProcess() throws Exception {
		long killed = tree("old");
		List<Long> left = List.of(awaitRunning("old-grandchild"), awaitRunning("old-daemon"));
		long current = tree("new");
		List<Long> spared = List.of(current, awaitRunning("new-command"), awaitRunning("new-grandchild"),
				awaitRunning("new-daemon"));
		IdentityProbe probe = IdentityProbe.forPlatform();
		OrphanStops orphans = new OrphanStops(this.spawns.owner(), probe, new ProcessSignaller(probe),
				probe.bootId().orElse(null), (name) -> null, () -> Set.of(current));
		try {
			Reaper.shared().signalGroupUnreaped(killed, 9);
			ExitStatus exit = await().atMost(DEADLINE)
				.until(() -> this.spawns.exitOf(killed), (status) -> status != null);
			await("the killed shepherd's command gone").atMost(DEADLINE)
				.until(() -> !LiveProcesses.isAlive(readPid("old-command")));
			assertThat(left).allMatch(LiveProcesses::isAlive);
			orphans.exited("tree",
					new ChildProcess(killed, null, false, true, null, null, Instant.now(), 0, null, null), exit);
			orphans.sweep();
			await("what the killed shepherd left gone").atMost(DEADLINE)
				.until(() -> left.stream().noneMatch(LiveProcesses::isAlive));
			assertThat(spared).allMatch(LiveProcesses::isAlive);
		}
		finally {
			Reaper.shared().signalGroupUnreaped(current, Shepherd.KILL_TREE_SIGNAL);
			await().atMost(DEADLINE).until(() -> this.spawns.exitOf(current) != null);
			left.forEach((pid) -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
		}
	}

	/**
	 * Starts a child "tree" under a shepherd: a TERM-ignoring command, a grandchild and a
	 * daemon, each writing its pid.
	 */
	private long tree(String prefix) throws SpawnException {
		String script = "cd '" + this.temp + "'; trap '' TERM; echo $$ > " + prefix + "-command; sleep 600 & echo $! > "
				+ prefix + "-grandchild; setsid sleep 600 & echo $! > " + prefix
				+ "-daemon; while :; do sleep 0.05; done";
		return this.spawns.spawnShepherded("tree", "/bin/sh", "-c", script).pid();
	}

	private long awaitRunning(String file) {
		long pid = await().atMost(DEADLINE).until(() -> readPid(file), (found) -> found > 0);
		await().atMost(DEADLINE)
			.until(() -> LiveProcesses.isRunning(pid, "sleep") || LiveProcesses.isRunning(pid, "sh"));
		return pid;
	}

	private long readPid(String file) {
		try {
			Path path = this.temp.resolve(file);
			String content = Files.exists(path) ? Files.readString(path).strip() : "";
			return content.isEmpty() ? 0 : Long.parseLong(content);
		}
		catch (IOException | NumberFormatException ex) {
			return 0;
		}
	}

}
