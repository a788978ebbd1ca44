package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.SecondJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * An {@link Error} on the spawner thread (here a real {@link OutOfMemoryError}) fails
 * only the spawn that threw it: the thread serves on, so no child gets its parent-death
 * signal and no caller waits for ever.
 */
@EnabledOnOs(OS.LINUX)
class SpawnerErrorTests {

	@TempDir
	Path temp;

	@Test
	void outOfMemoryOnTheSpawnerThreadFailsOnlyThatSpawn() {
		List<String> command = JavaCommand.of("-Xmx64m", "-cp", System.getProperty("java.class.path"),
				SpawnerOutOfMemoryCheck.class.getName(), this.temp.resolve("launcher").toString(),
				this.temp.toString());
		Map<String, String> printed = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
			try (SecondJvm jvm = SecondJvm.start(new ProcessBuilder(command).redirectErrorStream(true))) {
				return jvm.readUntil("FIRST", "HUGE", "FIRST_ALIVE", "SECOND", "DONE");
			}
		});
		assertThat(printed.get("HUGE")).contains("OutOfMemoryError");
		assertThat(printed.get("FIRST_ALIVE")).isEqualTo("true");
		assertThat(printed).containsKeys("SECOND", "DONE");
	}

}
