package dev.tether.supervisor.internal.output;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.TestRun;
import dev.tether.supervisor.testsupport.TreeSupervisorJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * After {@code kill -9} of a supervisor nothing reads its children's output pipes; a
 * shepherd holds their read ends, so a command that writes while it ends finishes instead
 * of dying of SIGPIPE.
 */
@EnabledOnOs(OS.LINUX)
class OutputAfterSupervisorDeathTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@TempDir
	Path temp;

	@Test
	void aCommandThatWritesWhileItEndsFinishesItsCleanup() throws Exception {
		cleansUpAfterKill9("output-death", "trap 'echo stopping; echo stopping >&2; touch cleaned-up; exit 0' TERM; "
				+ "echo up; while :; do sleep 0.1; done");
	}

	@Test
	void aStdioCommandThatWritesToItsStdoutWhileItEndsFinishesItsCleanup() throws Exception {
		// Why its stdout: nothing reads it once the JVM is gone, and only the shepherd's
		// copy of its read end keeps the write that follows the parent-death signal from
		// raising SIGPIPE.
		cleansUpAfterKill9("stdio-death",
				"trap 'echo stopping; touch cleaned-up; exit 0' TERM; echo up >&2; " + "while :; do sleep 0.1; done",
				"true", "false", "true");
	}

	/**
	 * Runs {@code script} as the one child of a second JVM (with {@code options} after
	 * the script), kills it.
	 */
	private void cleansUpAfterKill9(String purpose, String script, String... options) throws Exception {
		String installation = TestRun.installationId(purpose);
		String marker = "TETHER_INSTALLATION=" + installation;
		Path state = this.temp.resolve("state");
		List<String> arguments = new ArrayList<>(List.of(installation, state.toString(), "1", "true", script));
		arguments.addAll(List.of(options));
		try (SecondJvm jvm = SecondJvm.start(TreeSupervisorJvm.class, this.temp.resolve("jvm.log"),
				arguments.toArray(String[]::new))) {
			jvm.readUntil("STARTED");
			Path log = state.resolve("logs").resolve("tree-0.log");
			await("the command is up").atMost(DEADLINE)
				.until(() -> Files.exists(log) && Files.readString(log).contains("up"));
			jvm.kill9();
			await("the command cleaned up after its parent-death signal").atMost(DEADLINE)
				.until(() -> Files.exists(state.resolve("cleaned-up")));
			await("every process gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry(marker).isEmpty());
		}
		assertThat(state.resolve("cleaned-up")).exists();
	}

}
