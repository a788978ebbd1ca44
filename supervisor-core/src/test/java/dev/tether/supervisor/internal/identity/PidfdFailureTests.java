package dev.tether.supervisor.internal.identity;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.internal.os.Posix;
import dev.tether.supervisor.internal.spawn.Spawner;
import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.TestSpawns;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code pidfd_open} that fails for a reason other than ESRCH says nothing about the
 * process: it is never read as gone.
 */
@EnabledOnOs(OS.LINUX)
class PidfdFailureTests {

	@TempDir
	Path temp;

	@Test
	void liveProcessIsNotGoneWhenNoDescriptorIsLeft() throws Exception {
		Assumptions.assumeTrue(Posix.get().isPidfdAvailable(), "this kernel has no pidfd_open");
		try (TestSpawns spawns = new TestSpawns(new Spawner(15, this.temp.resolve("launcher")), this.temp)) {
			long pid = spawns.spawn("worker", "sleep", "600").pid();
			assertNotGoneWithoutDescriptors(pid, spawns.owner());
		}
	}

	private void assertNotGoneWithoutDescriptors(long pid, Owner owner) throws Exception {
		long startTime = LiveProcesses.stat(pid).orElseThrow().startTime();
		String bootId = IdentityProbe.forPlatform().bootId().orElseThrow();
		List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "ulimit -n 1024 && exec \"$@\"", "sh"));
		command.addAll(JavaCommand.main(PidfdExhaustionCheck.class, Long.toString(pid), owner.installationId(),
				owner.instanceId(), "worker", Long.toString(startTime), bootId));
		Process check = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output;
		try {
			output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			assertThat(check.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
		}
		finally {
			check.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
		Map<String, String> printed = Arrays.stream(output.split("\n"))
			.filter((line) -> line.matches("[A-Z]+ .*"))
			.map((line) -> line.split(" ", 2))
			.collect(Collectors.toMap((parts) -> parts[0], (parts) -> parts[1], (a, b) -> b));
		assertThat(printed).as(output)
			.containsEntry("PIDFD", "true")
			.containsEntry("BEFORE", "OURS")
			.containsEntry("AFTER", "OURS");
		assertThat(printed.get("EXHAUSTED")).as(output).contains("Too many open files");
		assertThat(printed.get("DURING")).as(output).isNotEqualTo("GONE").isEqualTo("UNVERIFIABLE");
		assertThat(LiveProcesses.isAlive(pid, startTime)).isTrue();
	}

}
