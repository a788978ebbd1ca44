package dev.tether.supervisor.internal.spawn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.ChildKind;
import dev.tether.supervisor.ExitStatus;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.internal.identity.Owner;
import dev.tether.supervisor.internal.os.PosixSpawn;
import dev.tether.supervisor.internal.reaper.Reaper;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Where glibc has no {@code posix_spawn_file_actions_addchdir_np} (older than 2.29), the
 * launcher puts the child in its working directory. This machine's glibc may have the
 * action, so the launcher's path is spawned as the spawner spawns it when the probe finds
 * none.
 */
@EnabledOnOs(OS.LINUX)
class WorkingDirectoryFallbackTests {

	@TempDir
	Path temp;

	private final List<Long> spawned = new ArrayList<>();

	private final Map<Long, ExitStatus> exits = new ConcurrentHashMap<>();

	private ParentDeath parentDeath;

	@BeforeEach
	void resolveLauncher() {
		this.parentDeath = ParentDeath.resolve(15, EnumSet.of(ParentDeathMechanism.LAUNCHER), this.temp.resolve("bin"));
		Assumptions.assumeTrue(this.parentDeath.mechanism() == ParentDeathMechanism.LAUNCHER,
				"the launcher does not run here");
	}

	@AfterEach
	void endChildren() {
		this.spawned.forEach((pid) -> Reaper.shared().signalGroupUnreaped(pid, 9));
		Reaper.shared().drain();
		await("children reaped").atMost(Duration.ofSeconds(10))
			.until(() -> this.spawned.stream().allMatch(this.exits::containsKey));
	}

	@Test
	void theProbeResultChoosesWhoChangesDirectory() {
		assertThat(WorkingDirectoryChange.choose(true, ParentDeathMechanism.LAUNCHER))
			.isEqualTo(WorkingDirectoryChange.SPAWN_ACTION);
		assertThat(WorkingDirectoryChange.choose(true, ParentDeathMechanism.NONE))
			.isEqualTo(WorkingDirectoryChange.SPAWN_ACTION);
		assertThat(WorkingDirectoryChange.choose(false, ParentDeathMechanism.LAUNCHER))
			.isEqualTo(WorkingDirectoryChange.LAUNCHER);
		assertThat(WorkingDirectoryChange.choose(false, ParentDeathMechanism.SETPRIV))
			.isEqualTo(WorkingDirectoryChange.UNAVAILABLE);
		assertThat(WorkingDirectoryChange.choose(false, ParentDeathMechanism.NONE))
			.isEqualTo(WorkingDirectoryChange.UNAVAILABLE);
	}

	@Test
	void launcherChangesDirectoryBeforeTheCommandRuns() throws Exception {
		Path directory = Files.createDirectory(this.temp.resolve("work"));
		long pid = spawnThroughLauncher(directory, "/bin/sleep", "sleep", "600");
		Path cwd = Path.of("/proc", Long.toString(pid), "cwd");
		await("the child runs sleep in its directory").atMost(Duration.ofSeconds(10))
			.until(() -> Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip().equals("sleep")
					&& Files.readSymbolicLink(cwd).equals(directory));
	}

	@Test
	void launcherThatCannotEnterTheDirectoryDoesNotRunTheCommand() throws Exception {
		Path missing = this.temp.resolve("missing");
		Path marker = this.temp.resolve("ran");
		long pid = spawnThroughLauncher(missing, "/bin/touch", "touch", marker.toString());
		await("the launcher exits").atMost(Duration.ofSeconds(10)).until(() -> this.exits.containsKey(pid));
		assertThat(this.exits.get(pid).code()).isEqualTo(125);
		assertThat(marker).doesNotExist();
		assertThat(this.temp.resolve("child.log")).content().contains("cannot change directory to " + missing);
	}

	@Test
	void onlyTheLauncherChangesDirectory() {
		ParentDeath none = ParentDeath.resolve(0, EnumSet.allOf(ParentDeathMechanism.class), this.temp.resolve("x"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> none.argv(Path.of("/bin/true"), List.of("true"), this.temp, CommandSettings.NONE));
	}

	private long spawnThroughLauncher(Path directory, String executable, String... command) throws Exception {
		Map<String, String> environment = ChildMarkers.stamp(System.getenv(), Map.of(),
				new Owner(TestRun.installationId("cwd"), "cwd"), ChildKind.AGENT, "cwd");
		List<String> env = environment.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + "=" + entry.getValue())
			.toList();
		List<String> argv = this.parentDeath.argv(Path.of(executable), List.of(command), directory,
				CommandSettings.NONE);
		assertThat(argv).containsSubsequence("--chdir", directory.toString());
		long pid = Reaper.shared()
			.spawnRegistered(() -> PosixSpawn.spawn(this.parentDeath.spawnedPath(Path.of(executable)), argv, env,
					Path.of("/dev/null"), new PosixSpawn.Output.AppendTo(this.temp.resolve("child.log")), null, null),
					this.exits::put);
		this.spawned.add(pid);
		return pid;
	}

}
