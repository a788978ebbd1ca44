package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.LimitedResource;
import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.os.HandedSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A command's limits and OOM score: handed to the launcher as its options, and refused
 * where no launcher would apply them before the command runs.
 */
class CommandSettingsTests {

	@TempDir
	Path temp;

	@Test
	void theLauncherGetsEachLimitByNameAndInfinityForNone() {
		CommandSettings settings = new CommandSettings(
				List.of(new CommandSettings.Limit(LimitedResource.OPEN_FILES, 64, 128),
						new CommandSettings.Limit(LimitedResource.CORE_SIZE, 0, Long.MAX_VALUE)),
				500);
		assertThat(settings.launcherOptions()).containsExactly("--limit", "nofile", "64", "128", "--limit", "core", "0",
				"infinity", "--oom-score-adjust", "500");
		assertThat(CommandSettings.NONE.launcherOptions()).isEmpty();
	}

	@Test
	void aSocketOnDescriptor3IsTheLaunchersAndOneOnStandardInputTheSpawnsAlone() {
		CommandSettings onThree = new CommandSettings(List.of(), null, List.of("LISTEN_PID"),
				new HandedSocket(12, false));
		assertThat(onThree.launcherOptions()).containsExactly("--pid-env", "LISTEN_PID", "--listen-socket");
		CommandSettings onStdin = new CommandSettings(List.of(), null, List.of(), new HandedSocket(12, true));
		assertThat(onStdin.launcherOptions()).isEmpty();
		assertThat(onStdin.needLauncher()).as("the spawn hands it, but only the native path can").isTrue();
	}

	@Test
	@EnabledOnOs(OS.LINUX)
	void withoutTheLauncherACommandWithSettingsIsNotStarted() {
		try (Spawner spawner = new Spawner(15, EnumSet.of(ParentDeathMechanism.SETPRIV),
				this.temp.resolve("launcher"))) {
			SpawnRequest request = new SpawnRequest(List.of("/bin/true"), Map.of(), null, this.temp.resolve("log"),
					null, false, null, false, new CommandSettings(List.of(), 500));
			assertThatExceptionOfType(SpawnException.class).isThrownBy(() -> spawner.spawn(request, (pid, status) -> {
			}))
				.withMessage(
						"limits, oom-score-adjust and socket activation are applied by the launcher, which is not in "
								+ "force here (parent-death mechanism: " + spawner.parentDeathMechanism().id()
								+ "); /bin/true is not started without them");
			SpawnRequest socket = new SpawnRequest(List.of("/bin/true"), Map.of(), null, this.temp.resolve("log"), null,
					false, null, false, new CommandSettings(List.of(), null, List.of(), new HandedSocket(12, true)));
			assertThatExceptionOfType(SpawnException.class).isThrownBy(() -> spawner.spawn(socket, (pid, status) -> {
			})).withMessageStartingWith("limits, oom-score-adjust and socket activation are applied by the launcher");
		}
	}

}
