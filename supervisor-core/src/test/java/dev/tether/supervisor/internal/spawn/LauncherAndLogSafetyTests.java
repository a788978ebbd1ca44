package dev.tether.supervisor.internal.spawn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.SpawnException;
import dev.tether.supervisor.internal.output.ChildOutput;
import dev.tether.supervisor.output.LogSettings;
import dev.tether.supervisor.testsupport.Fifo;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The launcher is executed only from a directory no other user can change, and a child's
 * log is never reached through a symbolic link.
 */
@EnabledOnOs(OS.LINUX)
class LauncherAndLogSafetyTests {

	@TempDir
	Path temp;

	private TestSpawns spawns;

	@BeforeEach
	void createSpawner() throws Exception {
		this.spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")),
				Files.createDirectory(this.temp.resolve("logs")));
	}

	@AfterEach
	void endChildren() {
		this.spawns.close();
	}

	@Test
	void launcherIsNotUsedFromADirectoryOthersCanWrite() throws Exception {
		Path shared = Files.createDirectory(this.temp.resolve("shared"));
		Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
		ParentDeath parentDeath = ParentDeath.resolve(15, EnumSet.of(ParentDeathMechanism.LAUNCHER),
				shared.resolve("bin"));
		assertThat(parentDeath.mechanism()).isEqualTo(ParentDeathMechanism.NONE);
		assertThat(shared).isEmptyDirectory();
	}

	@Test
	void launcherIsUsedFromAPrivateDirectory() {
		ParentDeath parentDeath = ParentDeath.resolve(15, EnumSet.of(ParentDeathMechanism.LAUNCHER),
				this.temp.resolve("bin"));
		assertThat(parentDeath.mechanism()).isEqualTo(ParentDeathMechanism.LAUNCHER);
	}

	@Test
	void childLogPlantedAsALinkIsNotFollowed() throws Exception {
		Path victim = Files.writeString(this.temp.resolve("victim"), "precious\n");
		Files.createSymbolicLink(this.temp.resolve("logs").resolve("writer.log"), victim);
		assertThatExceptionOfType(SpawnException.class)
			.isThrownBy(() -> this.spawns.spawn("writer", "/bin/sh", "-c", "echo appended"))
			.withMessageContaining("writer.log");
		assertThat(victim).hasContent("precious");
	}

	@Test
	void childLogPlantedAsAFifoFailsTheSpawnAtOnce() throws Exception {
		Path log = Fifo.make(this.temp.resolve("logs").resolve("frozen.log"));
		try (TestSpawns appending = new TestSpawns(new Spawner(0, this.temp.resolve("launcher")), log.getParent())) {
			assertThat(appending.spawner().capturesOutput()).isFalse();
			assertTimeoutPreemptively(Duration.ofSeconds(20),
					() -> assertThatExceptionOfType(SpawnException.class)
						.isThrownBy(() -> appending.spawn("frozen", "/bin/sh", "-c", "echo appended"))
						.withMessageContaining(
								"the log file " + log + " is a FIFO or a device, which is never opened as a log"));
		}
	}

	@Test
	void capturedChildLogPlantedAsALinkIsNotFollowed() throws Exception {
		Path victim = Files.writeString(this.temp.resolve("victim"), "precious\n");
		Path log = this.temp.resolve("logs").resolve("captured.log");
		Files.createSymbolicLink(log, victim);
		ChildOutput output = new ChildOutput("captured",
				new LogSettings(null, true, 1024 * 1024, 1, false, Level.WARN, 1024), log);
		assertThatExceptionOfType(SpawnException.class)
			.isThrownBy(() -> this.spawns.spawnCaptured(output, "/bin/sh", "-c", "echo appended"))
			.withMessage("cannot open the log file of child 'captured': " + log
					+ " is a symbolic link, which is never followed");
		assertThat(victim).hasContent("precious");
	}

}
