package dev.tether.supervisor.internal.spawn;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.tether.supervisor.ParentDeathMechanism;
import dev.tether.supervisor.internal.identity.ChildMarkers;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.SpawnerJvm;
import dev.tether.supervisor.testsupport.SupervisorJvm;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The promise when the spawning JVM is killed with SIGKILL: its children end, whatever it
 * was doing.
 */
@EnabledOnOs(OS.LINUX)
class ParentDeathTests {

	// Why generous: the parent-death signal is immediate, but a loaded machine may take a
	// while to run the exits.
	private static final Duration CHILDREN_GONE = Duration.ofSeconds(10);

	@TempDir
	Path temp;

	@ParameterizedTest
	@EnumSource(value = ParentDeathMechanism.class, names = { "LAUNCHER", "SETPRIV" })
	void childrenDieWhenTheSpawningJvmIsKilled(ParentDeathMechanism mechanism) throws Exception {
		String installation = TestRun.installationId("parent-death");
		try (SecondJvm jvm = SecondJvm.start(SpawnerJvm.class, this.temp.resolve("jvm.log"), mechanism.id(), "5",
				installation, this.temp.toString())) {
			Map<String, String> printed = jvm.readUntil("MECHANISM", "PIDS");
			assertThat(printed).as(() -> LiveProcesses.readIfPresent(this.temp.resolve("jvm.log")))
				.containsEntry("MECHANISM", mechanism.id());
			List<Long> children = Arrays.stream(printed.get("PIDS").split(" ")).map(Long::valueOf).toList();
			assertThat(children).hasSize(5);
			await().atMost(Duration.ofSeconds(10))
				.until(() -> children.stream().allMatch((child) -> LiveProcesses.isRunning(child, "sleep")));
			List<long[]> identities = children.stream()
				.map((child) -> new long[] { child, LiveProcesses.stat(child).orElseThrow().startTime() })
				.toList();
			jvm.kill9();
			await().atMost(CHILDREN_GONE)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> identities.stream().noneMatch((child) -> LiveProcesses.isAlive(child[0], child[1])));
		}
	}

	@Test
	void supervisorJvmKilledInTheMiddleOfARestartLoopLeavesNothingAndStartsNothingLater() throws Exception {
		String installation = TestRun.installationId("restart-loop");
		String marker = ChildMarkers.INSTALLATION_ENV + "=" + installation;
		try (SecondJvm jvm = SecondJvm.start(SupervisorJvm.class, this.temp.resolve("jvm.log"), installation,
				this.temp.resolve("state").toString())) {
			// Three starts seen: the loop is running, a restart is either pending or
			// being spawned right now.
			jvm.readUntilCount("STARTED", 3);
			jvm.kill9();
			await("every child of the killed supervisor gone").atMost(CHILDREN_GONE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
			await("nothing of the killed supervisor started later").during(Duration.ofSeconds(1))
				.atMost(Duration.ofSeconds(15))
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
		}
	}

}
