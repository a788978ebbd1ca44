package dev.tether.supervisor.springai;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.tether.supervisor.testsupport.JavaCommand;
import dev.tether.supervisor.testsupport.LiveProcesses;
import dev.tether.supervisor.testsupport.SecondJvm;
import dev.tether.supervisor.testsupport.TestRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code kill -9} of an application that hosts an MCP stdio server which never exits on
 * its own (a periodic timer keeps it alive after its stdin closes) and runs under
 * {@code sh -c}, so that it has a grandchild.
 */
@EnabledOnOs(OS.LINUX)
class ApplicationKilledTests {

	private static final Duration DEADLINE = Duration.ofSeconds(60);

	@TempDir
	Path temp;

	@Test
	void underTetherNoProcessOfTheServersTreeSurvives() throws Exception {
		String installation = TestRun.installationId("spring-ai-kill9");
		String run = "tether-" + installation;
		try (SecondJvm jvm = host(installation, "tether", run)) {
			long serverPid = Long.parseLong(ready(jvm));
			List<Long> tree = LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run);
			assertThat(tree).as("the server and its sh wrapper").contains(serverPid).hasSizeGreaterThanOrEqualTo(2);
			String java = JavaCommand.of().get(0);
			assertThat(tree.stream().filter((pid) -> LiveProcesses.commandLine(pid).startsWith(java)))
				.as("one server, though the autostart at ready came after Spring AI connected")
				.hasSize(1);
			jvm.kill9();
			await("every process of the server's tree gone").atMost(DEADLINE)
				.until(() -> LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run).isEmpty());
		}
	}

	@Test
	void underSpringAisOwnStdioConnectionTheServerSurvives() throws Exception {
		String installation = TestRun.installationId("spring-ai-own");
		String run = "spring-ai-" + installation;
		try (SecondJvm jvm = host(installation, "spring-ai", run)) {
			ready(jvm);
			jvm.kill9();
			await("the JVM is gone").atMost(DEADLINE).until(() -> !jvm.process().isAlive());
			// Why a grace period, not a wait for a state: the server is given the time it
			// would need to notice that its stdin closed; it never does, and survival is
			// the absence of an event.
			await().pollDelay(Duration.ofSeconds(3)).atMost(DEADLINE).until(() -> true);
			assertThat(LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run)).as("survivors").isNotEmpty();
		}
		finally {
			// Why here: nothing else would ever end them; each carries this run's marker
			// in its environment.
			for (long pid : LiveProcesses.withEnvironmentEntry("FIXTURE_RUN=" + run)) {
				new ProcessBuilder("kill", "-9", Long.toString(pid)).start().waitFor();
			}
		}
	}

	/**
	 * A second JVM hosting the fixture server ({@link McpHostJvm}), its output in
	 * {@code jvm.log}.
	 */
	private SecondJvm host(String installation, String runner, String run) throws IOException {
		return SecondJvm.start(new ProcessBuilder(
				JavaCommand.main(McpHostJvm.class, this.temp.resolve("state").toString(), installation, runner, run))
			.redirectErrorStream(true)
			.redirectOutput(this.temp.resolve("jvm.log").toFile()));
	}

	/** The server's pid, once the host printed it. */
	private String ready(SecondJvm jvm) throws IOException {
		Path log = this.temp.resolve("jvm.log");
		await("the application is ready").atMost(DEADLINE)
			.until(() -> readyLine(log) != null || !jvm.process().isAlive());
		String pid = readyLine(log);
		assertThat(pid).as("READY in %s", LiveProcesses.readIfPresent(log)).isNotNull();
		return pid;
	}

	private static @Nullable String readyLine(Path log) throws IOException {
		return Files.readAllLines(log)
			.stream()
			.filter((line) -> line.startsWith("READY "))
			.map((line) -> line.substring(6).trim())
			.findFirst()
			.orElse(null);
	}

}
